// The types of one route, read from the generated OpenAPI types by path and method: its path
// parameters, query, JSON body and success answer. A resource method names its route as a literal
// path and method, so a route the server renamed, or whose body or answer changed, breaks the
// client's type-check (after `npm run client:types`), not a user's program at run time.
import type { paths } from './generated/openapi';

export type Paths = paths;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The operation at a path and method (never when the route does not exist). */
export type Operation<P extends keyof Paths, M extends Method> = NonNullable<Paths[P][M]> extends infer O ? ([O] extends [never] ? never : O) : never;

type Params<O> = O extends { parameters: infer X } ? X : never;

/** The path parameters (`{ id: string }`), or never for a path without any. */
export type PathParams<P extends keyof Paths, M extends Method> = Params<Operation<P, M>> extends { path?: infer X } ? Exclude<X, undefined> : never;

/** The query parameters as a client sends them (before the server's defaults). */
export type Query<P extends keyof Paths, M extends Method> = Params<Operation<P, M>> extends { query?: infer X } ? Exclude<X, undefined> : never;

/** The JSON body (never for a route that takes none). */
export type Body<P extends keyof Paths, M extends Method> = Operation<P, M> extends { requestBody?: infer R }
  ? [Exclude<R, undefined>] extends [never]
    ? never
    : Exclude<R, undefined> extends { content: { 'application/json': infer B } }
      ? B
      : never
  : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : R extends { content?: never } ? undefined : unknown;

/** The JSON of the success answer (undefined for a 204 without content). */
export type Answer<P extends keyof Paths, M extends Method> = Operation<P, M> extends { responses: infer R }
  ? { [S in keyof R & SuccessStatus]: JsonOf<R[S]> }[keyof R & SuccessStatus]
  : never;

/** The element type of a list answer `{ data: T[] }`. */
export type Item<P extends keyof Paths, M extends Method = 'get'> = Answer<P, M> extends { data: Array<infer T> } ? T : never;

/** A named schema of the document (what the server calls it in `components.schemas`). */
export type Schema<N extends keyof import('./generated/openapi').components['schemas']> = import('./generated/openapi').components['schemas'][N];
