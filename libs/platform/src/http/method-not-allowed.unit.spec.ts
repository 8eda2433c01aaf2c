import type { FastifyInstance } from 'fastify';

import { mapError } from './error-mapping';
import { allowedMethods, methodNotAllowed, ROUTE_METHODS, urlPath } from './method-not-allowed';

/** A router of fixed routes, answering as Fastify's findRoute does: a match or null. */
function router(routes: Record<string, readonly string[]>): Pick<FastifyInstance, 'findRoute'> {
  const findRoute = (({ method, url }: { method: string; url: string }) =>
    routes[url]?.includes(method) ? { handler: () => undefined, params: {}, searchParams: {} } : null) as FastifyInstance['findRoute'];
  return { findRoute };
}

describe('405 METHOD_NOT_ALLOWED', () => {
  it("lists a path's methods in Allow's order, from the router, for the path without its query", () => {
    const routes = router({ '/api/v1/buyer-requests': ['POST', 'HEAD', 'GET'], '/docs': ['GET', 'HEAD'] });
    expect(allowedMethods(routes, '/api/v1/buyer-requests?limit=5')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods(routes, '/docs')).toEqual(['GET', 'HEAD']);
    expect(allowedMethods(routes, '/nowhere')).toEqual([]);
  });

  it('never counts OPTIONS, which a catch-all route answers on every path (CORS preflights)', () => {
    expect(ROUTE_METHODS).not.toContain('OPTIONS');
    expect(allowedMethods(router({ '/x': ['OPTIONS'] }), '/x')).toEqual([]);
  });

  it('answers in the error shape, naming the method and what the path allows', () => {
    expect(urlPath('/a/b?c=d')).toBe('/a/b');
    expect(mapError(methodNotAllowed('DELETE', '/api/v1/buyer-requests', ['GET', 'HEAD', 'POST']))).toEqual({
      status: 405,
      unexpected: false,
      body: {
        code: 'METHOD_NOT_ALLOWED',
        message: 'Method DELETE is not allowed on /api/v1/buyer-requests (allowed: GET, HEAD, POST)',
        details: { method: 'DELETE', allowed: ['GET', 'HEAD', 'POST'] },
      },
    });
  });
});
