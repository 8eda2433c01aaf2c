// A known path asked with a method it does not have answers 405 METHOD_NOT_ALLOWED with an `Allow`
// header, not 404 (which stays for unknown paths). Which methods a path has, Fastify's own router
// says (the routes as registered, with the HEAD that Fastify adds beside every GET): no list is
// kept by hand.
import type { FastifyInstance } from 'fastify';

import { ApiError } from './api-error';

/**
 * The methods a path can have, in the order `Allow` lists them. OPTIONS is not among them: CORS
 * preflights are answered by one catch-all route, for every path.
 */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A request URL's path, without its query. */
export function urlPath(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The methods `url`'s path has (ROUTE_METHODS order); none for a path no route matches. */
export function allowedMethods(router: Pick<FastifyInstance, 'findRoute'>, url: string): string[] {
  const path = urlPath(url);
  return ROUTE_METHODS.filter((method) => router.findRoute({ method, url: path }) !== null);
}

/** The 405 for `method` on `path`, whose methods are `allowed` (the `Allow` header's value). */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): ApiError {
  return new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`, {
    method,
    allowed: [...allowed],
  });
}
