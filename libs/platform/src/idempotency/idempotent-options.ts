// The metadata @Idempotent() puts on a route, apart from the decorator so that the interceptor can
// read it without importing the decorator (which imports the interceptor).

/** `true` on every @Idempotent() route (the route catalog and the coverage test read it). */
export const IDEMPOTENT_ROUTE = 'idempotentRoute';
/** The route's IdempotentOptions, read by the interceptor. */
export const IDEMPOTENT_OPTIONS = 'idempotentOptions';

export interface IdempotentOptions {
  /**
   * The answer holds a secret shown once (an API key, a webhook signing secret): the stored answer
   * is sealed with the SecretBox instead of kept in clear, and opened again for a replay.
   */
  sensitive?: boolean;
}
