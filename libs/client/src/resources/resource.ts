// The typed call layer the resource groups are written in. A method names its route by the literal
// full path and method of the OpenAPI document, `this.call('/api/v1/buyer-requests/{id}', 'get',
// { path: { id } })`, and its path parameters, query, body and answer are the types of that route
// (endpoint-types.ts): a route the server renamed, or whose body or answer changed, fails the
// client's type-check after `npm run client:types`. At run time the path loses its `/api/v1`
// (the transport adds it), each `{name}` is filled with its parameter as one encoded segment, and
// the call goes through the one Transport.
import type { Answer, Body, Item, Method, Operation, PathParams, Paths, Query } from '../endpoint-types';
import { encodePath, type HttpMethod, type Query as TransportQuery, type ResponseFormat, type Transport } from '../core/transport';
import { type Page, type PageFetcher, paginate, paginateList, PagePromise } from '../core/pagination';

/** What every method takes last: per-call settings of the transport. */
export interface RequestOptions {
  /**
   * Writes only (POST, PATCH, DELETE): the `Idempotency-Key` to send, e.g. one kept with the order
   * it creates, so a retry made later — by you, not only the client's own retries — runs once.
   * Generated when omitted; ignored on reads.
   */
  idempotencyKey?: string;
  /** Per attempt; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Aborts the call (retries included); it then throws `RequestAbortedError`. */
  signal?: AbortSignal;
  /** Overrides the client's `maxRetries` (0: no retry). */
  maxRetries?: number;
  /** Extra headers; they override the client's own (but never the Idempotency-Key, see above). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Writes to one resource: the version you decided on, as `etagOf(resource)` gave it (`W/"3"`).
   * Sent as `If-Match`: the write happens only if the resource is still at that version, else it
   * throws `PreconditionFailedError` (its `currentETag` is the version now).
   */
  ifMatch?: string;
}

/** Where the version of an answer is kept (not a field of the answer: JSON.stringify leaves it out). */
const ETAG = Symbol('etag');

/**
 * The version of a resource as the answer that brought it said (its `ETag`, e.g. `W/"3"`): pass
 * it back as `ifMatch` to make a write conditional. Undefined for an answer without one.
 */
export function etagOf(answer: unknown): string | undefined {
  return typeof answer === 'object' && answer !== null ? (answer as { [ETAG]?: string })[ETAG] : undefined;
}

/** The routes of the JSON API (everything under /api/v1). */
export type ApiPath = Extract<keyof Paths, `/api/v1/${string}`>;

/** The methods a path has. */
export type MethodOf<P extends keyof Paths> = { [M in Method]: [Operation<P, M>] extends [never] ? never : M }[Method];

type IsNever<T> = [T] extends [never] ? true : false;
type BodyRequired<P extends keyof Paths, M extends Method> = {} extends Pick<Operation<P, M>, 'requestBody' & keyof Operation<P, M>> ? false : true;

/**
 * The parts of a call to one route: `path` when it has parameters (required), `query` when it
 * takes one, `body` when it takes JSON (required when the route requires it). A part the route
 * does not take is refused by the type-check.
 */
export type CallParts<P extends keyof Paths, M extends Method> = (IsNever<PathParams<P, M>> extends true ? { path?: never } : { path: PathParams<P, M> }) &
  (IsNever<Query<P, M>> extends true ? { query?: never } : { query?: Query<P, M> }) &
  (IsNever<Body<P, M>> extends true
    ? { body?: never; rawBody?: never }
    : BodyRequired<P, M> extends true
      ? { body: Body<P, M>; rawBody?: never } | { body?: never; rawBody: RawRequestBody }
      : { body?: Body<P, M>; rawBody?: RawRequestBody });

/**
 * A body sent as it is instead of the route's JSON, where the route takes another media type too
 * (the intake items route's `text/csv`); never checked against the route's types.
 */
export interface RawRequestBody {
  contentType: string;
  content: string;
}

/** The parts as the implementation reads them, once their types are checked. */
interface UntypedParts {
  path?: Readonly<Record<string, string | number>>;
  query?: TransportQuery;
  body?: unknown;
  rawBody?: RawRequestBody;
}

const API_PREFIX = '/api/v1';

/**
 * `/api/v1/live-sessions/{id}/lots/{lotId}` with `{ id: 'ls 1', lotId: 'lot_2' }` →
 * `/live-sessions/ls%201/lots/lot_2`: the path under /api/v1, each parameter one encoded segment
 * (`encodePath`: an empty, `.` or `..` value is refused). A missing parameter is an error, never
 * the text "undefined" in a URL.
 */
export function fillPath(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  if (!template.startsWith(`${API_PREFIX}/`)) throw new TypeError(`Not a route of the API: ${template}`);
  const relative = template.slice(API_PREFIX.length);
  const strings: string[] = [];
  const values: Array<string | number> = [];
  let rest = relative;
  for (let match = /\{(\w+)\}/.exec(rest); match !== null; match = /\{(\w+)\}/.exec(rest)) {
    const name = match[1];
    const value = params[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new TypeError(`Missing the path parameter "${name}" of ${template} (got ${value === null ? 'null' : typeof value})`);
    }
    strings.push(rest.slice(0, match.index));
    values.push(value);
    rest = rest.slice(match.index + match[0].length);
  }
  strings.push(rest);
  return encodePath(Object.assign([...strings], { raw: strings }), ...values);
}

/** The transport's request of one call: the route's path filled, its method upper-cased, the options passed through. */
function requestOf(path: string, method: Method, parts: UntypedParts, options: RequestOptions | undefined, responseType?: ResponseFormat) {
  return {
    method: method.toUpperCase() as HttpMethod,
    path: fillPath(path, parts.path),
    query: parts.query,
    body: parts.body,
    rawBody: parts.rawBody,
    idempotencyKey: options?.idempotencyKey,
    timeoutMs: options?.timeoutMs,
    maxRetries: options?.maxRetries,
    signal: options?.signal,
    headers: options?.ifMatch === undefined ? options?.headers : { ...options.headers, 'If-Match': options.ifMatch },
    responseType,
  };
}

/**
 * One call to one route, typed by its literal path and method; resolves with the answer's JSON. A
 * path parameter that cannot fill its segment (missing, empty, `.` or `..`) throws a TypeError at
 * once, before any request: it is a mistake in the calling code, not a failure of the call.
 */
export function callRoute<P extends ApiPath, M extends MethodOf<P>>(
  transport: Pick<Transport, 'request'>,
  path: P,
  method: M,
  parts: CallParts<P, M>,
  options?: RequestOptions,
): Promise<Answer<P, M>> {
  const request = requestOf(path, method, parts as UntypedParts, options);
  return transport.request<Answer<P, M>>(request).then(({ data, headers }) => {
    const etag = headers.get('etag');
    if (etag !== null && typeof data === 'object' && data !== null) Object.defineProperty(data, ETAG, { value: etag, enumerable: false });
    return data;
  });
}

/** Whether GET `P` answers a page: its list under `F`, and a `nextCursor`. */
type PagedBy<P extends ApiPath, F extends string> = [Answer<P, 'get'>] extends [never]
  ? never
  : Answer<P, 'get'> extends { [K in F]: unknown[] } & { nextCursor: string | null }
    ? P
    : never;
/** The list routes: GET answering `{ data, nextCursor }`. */
export type ListPath = { [K in ApiPath]: PagedBy<K, 'data'> }[ApiPath];
/** The routes answering a page under another name than `data` (the tradegraph's). */
export type ReportPath<F extends string> = { [K in ApiPath]: PagedBy<K, F> }[ApiPath];
type ElementOf<A, F extends string> = A extends { [K in F]: Array<infer T> } ? T : never;

/**
 * A report whose answer is one page of a list (the tradegraph's: the clusters, cards or items of
 * the answer, and `nextCursor`). Awaited, it is the answer itself — the first page, with the
 * window, totals and timings it came with. Iterated with `for await`, it is every element of the
 * list across every page, each page fetched when the previous one is used up; `pages()` yields
 * each page (`page.items`, and the whole answer as `page.raw`).
 *
 *   const summary = await api.tradeGraph.summary({ windowDays: 30 });   // TradegraphSummary
 *   for await (const cluster of api.tradeGraph.summary({ windowDays: 30 })) { … }  // DemandCluster
 */
export class ReportPromise<T, Raw> implements PromiseLike<Raw>, AsyncIterable<T> {
  constructor(private readonly list: PagePromise<T, Raw>) {}

  then<A = Raw, B = never>(onfulfilled?: ((answer: Raw) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.answer().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Raw | B> {
    return this.answer().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Raw> {
    return this.answer().finally(onfinally);
  }

  /** Every page, the first included, fetched as the loop asks for them. */
  pages(): AsyncGenerator<Page<T, Raw>, void, undefined> {
    return this.list.pages();
  }

  /** Every element of the list, across every page. */
  [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    return this.list[Symbol.asyncIterator]();
  }

  private answer(): Promise<Raw> {
    // paginateList keeps every page's whole answer as its raw.
    return this.list.then((page) => page.raw as Raw);
  }
}

/** The base of a resource group: one transport, and the typed call, list and report helpers. */
export abstract class Resource {
  constructor(protected readonly transport: Pick<Transport, 'request'>) {}

  /** One call; resolves with the answer's JSON. */
  protected call<P extends ApiPath, M extends MethodOf<P>>(path: P, method: M, parts: CallParts<P, M>, options?: RequestOptions): Promise<Answer<P, M>> {
    return callRoute(this.transport, path, method, parts, options);
  }

  /** One GET whose answer is read as text (a document whose bytes matter, e.g. to hash them). */
  protected callText<P extends ApiPath>(path: P, parts: CallParts<P, MethodOf<P> & 'get'>, options?: RequestOptions): Promise<string> {
    const request = requestOf(path, 'get', parts as UntypedParts, options, 'text');
    return this.transport.request<string>(request).then(({ data }) => data);
  }

  /**
   * A list route (`{ data, nextCursor }`): a `PagePromise` — awaited, the first page; iterated,
   * every item of every page. A `cursor` in the query is where the listing starts.
   */
  protected listRoute<P extends ListPath>(
    path: P,
    parts: CallParts<P, 'get' & MethodOf<P>>,
    options?: RequestOptions,
  ): PagePromise<Item<P>, Answer<P, 'get'>> {
    return this.paged<Item<P>, Answer<P, 'get'>>(path, parts, options, (answer) => {
      const page = answer as unknown as { data: Item<P>[]; nextCursor: string | null };
      return { items: page.data, nextCursor: page.nextCursor };
    });
  }

  /**
   * A route answering one list without a cursor (`{ data }`): one page, so that it reads, awaits
   * and iterates like every other list.
   */
  protected singlePage<P extends ApiPath>(
    path: P,
    parts: CallParts<P, 'get' & MethodOf<P>>,
    options?: RequestOptions,
  ): PagePromise<ElementOf<Answer<P, 'get'>, 'data'>, Answer<P, 'get'>> {
    type T = ElementOf<Answer<P, 'get'>, 'data'>;
    const fetcher: PageFetcher<T, Answer<P, 'get'>> = async () => {
      const answer = await callRoute(this.transport, path, 'get' as 'get' & MethodOf<P>, parts, options);
      return { items: (answer as { data: T[] }).data, nextCursor: null, raw: answer as Answer<P, 'get'> };
    };
    return paginate(fetcher);
  }

  /** A report paged by its `field` list (see `ReportPromise`). */
  protected reportRoute<F extends string, P extends ReportPath<F>>(
    path: P,
    field: F,
    parts: CallParts<P, 'get' & MethodOf<P>>,
    options?: RequestOptions,
  ): ReportPromise<ElementOf<Answer<P, 'get'>, F>, Answer<P, 'get'>> {
    type T = ElementOf<Answer<P, 'get'>, F>;
    return new ReportPromise(
      this.paged(path, parts, options, (answer: Answer<P, 'get'>) => {
        const page = answer as unknown as Record<F, T[]> & { nextCursor: string | null };
        return { items: page[field], nextCursor: page.nextCursor };
      }),
    );
  }

  private paged<T, Raw>(
    path: ApiPath,
    parts: unknown,
    options: RequestOptions | undefined,
    extract: (answer: Raw) => { items: T[]; nextCursor: string | null },
  ): PagePromise<T, Raw> {
    const { path: params, query } = parts as UntypedParts;
    return paginateList<T, Raw>(this.transport, {
      path: fillPath(path, params),
      query,
      timeoutMs: options?.timeoutMs,
      maxRetries: options?.maxRetries,
      signal: options?.signal,
      headers: options?.headers,
      extract,
    });
  }
}
