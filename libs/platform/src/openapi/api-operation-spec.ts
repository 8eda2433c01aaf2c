// What @ApiOperation says of a route: its documentation, and the schemas that validate what it reads.
import type { z } from 'zod';

export interface ApiResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** An example body; checked against `schema` by the OpenAPI tests. */
  example?: unknown;
  /** The media type of the body; JSON unless said (e.g. `text/html` for the docs page). */
  contentType?: string;
}

export interface ApiOperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * Validates `@Body()`. When the schema accepts `{}` (every field optional, as on most action
   * routes), a request with no body is validated and handed over as `{}`; otherwise a missing body
   * is `400 VALIDATION_FAILED`. See `bodyIsOptional`.
   */
  body?: z.ZodType;
  /** An example request body. */
  bodyExample?: unknown;
  /** Validates `@Query()`. */
  query?: z.ZodType;
  /** Validates `@Param()`, the path parameters as one object. */
  params?: z.ZodType;
  /** Success responses by status. Error responses come from `errors` and the route's auth. */
  responses: Record<number, ApiResponseSpec>;
  /** Error codes this route may answer beyond the ones every authenticated route may. */
  errors?: string[];
  /** Headers the route honours, e.g. ['Idempotency-Key']. */
  headers?: string[];
  /**
   * The route answers one resource that is an event stream: its success answers carry `ETag`
   * (the stream's revision). `if-match`, on a write to an existing resource: `If-Match` with such
   * an ETag makes the write conditional — `412 PRECONDITION_FAILED` when the resource has moved on.
   */
  versioned?: 'etag' | 'if-match';
}

/**
 * The one rule for bodies, as Stripe's: a body whose fields are all optional (its schema accepts
 * `{}`) may be left out — `POST /…/:id/archive` with no body and no Content-Type is `{}`. The
 * OpenAPI document marks such a request body as not required.
 */
export function bodyIsOptional(schema: z.ZodType): boolean {
  return schema.safeParse({}).success;
}
