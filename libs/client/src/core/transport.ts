// The one way a request leaves the client: `Transport.request` builds the URL and headers, sends
// JSON, times each attempt out, retries what is safe to retry, and turns error answers into the
// classes of errors.ts. Browser-safe: only fetch, AbortController, setTimeout and globalThis.crypto.
//
// Retries (stripe-node's policy, with this API's codes):
//   - retried: no answer (a network error, a timeout), 500/502/503/504, 429, and 409
//     IDEMPOTENCY_KEY_IN_USE; never any other 4xx, and never after the caller's signal aborted;
//   - at most `maxRetries` times (2 by default: 3 attempts in all);
//   - when the answer says how long to wait (`details.retry_after`, else `Retry-After`), exactly that
//     long — unless it is over `maxServerWaitMs` (60 s), when the error is thrown at once instead;
//   - else exponential backoff with full jitter: retry n (0-based) waits
//     random(0, min(maxDelayMs, baseDelayMs × 2^n)): up to 0.5 s, 1 s, 2 s, 4 s, then 8 s.
// Writes retried after a lost answer are safe because every write carries an `Idempotency-Key` —
// the caller's, or one made here — and the same key on each attempt: the server runs it once and
// replays its answer to the retries. (The server keeps keys for POST, the API's only
// non-idempotent method; PUT, PATCH and DELETE carry one too, harmlessly.)
//
// How a URL is made is url.ts's; what the transport needs of the runtime (a sleep, a race against a
// signal, a UUID) is runtime.ts's.
import {
  ApiError,
  CommerceError,
  ConnectionError,
  errorFromResponse,
  RequestAbortedError,
  TimeoutError,
} from './errors';
import { defaultSleep, randomUuid, untilAborted } from './runtime';
import { apiBase, type Query, queryString } from './url';
import { CLIENT_USER_AGENT } from './version';

export { API_BASE_PATH, encodePath, type Query, queryString, type QueryValue } from './url';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;

export interface RetryPolicy {
  /** The first retry's jitter range; each retry doubles it. */
  baseDelayMs: number;
  /** The most a backoff delay can be. */
  maxDelayMs: number;
  /** The longest server-requested wait the client sleeps through; a longer one is thrown at once. */
  maxServerWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = { baseDelayMs: 500, maxDelayMs: 8_000, maxServerWaitMs: 60_000 };

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What `fetch` the transport needs; the global one by default (Node ≥ 18, browsers). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
/** Waits `ms` milliseconds; resolves early (never rejects) when the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface TransportOptions {
  /** Sent as `Authorization: Bearer <apiKey>`. Omit it only for public routes (health, trust). */
  apiKey?: string;
  /** The server's origin, e.g. `https://api.example.com` (a path prefix is kept; a trailing `/api/v1` is not doubled). */
  baseUrl: string;
  /** Per attempt; 30 s by default. */
  timeoutMs?: number;
  /** 2 by default. */
  maxRetries?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchLike;
  /** For tests: a sleep that records delays instead of waiting. */
  sleep?: Sleep;
  /** In [0, 1), as Math.random; for tests of the jitter. */
  random?: () => number;
  /** Milliseconds since the epoch, as Date.now; reads a `Retry-After` date. */
  now?: () => number;
  /** Makes an Idempotency-Key; a random UUID by default. */
  generateIdempotencyKey?: () => string;
}

export interface RequestOptions {
  method: HttpMethod;
  /** Under `/api/v1`, starting with `/`; path parameters already encoded (see `encodePath`). */
  path: string;
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** A body sent as it is, e.g. `{ contentType: 'text/csv', content }` for the intake items route. */
  rawBody?: { contentType: string; content: string };
  /** Writes only (ignored on GET and HEAD); generated when omitted. The same on every retry. */
  idempotencyKey?: string;
  /** Overrides the transport's timeout, per attempt. */
  timeoutMs?: number;
  /** Overrides the transport's `maxRetries`. */
  maxRetries?: number;
  /** Aborts the call at once, retries included; the call then throws `RequestAbortedError`. */
  signal?: AbortSignal;
  /** Extra headers; they override the transport's own. */
  headers?: Readonly<Record<string, string>>;
  /** How to read a successful answer: JSON (the default; empty is undefined), text or bytes. */
  responseType?: ResponseFormat;
}

export type ResponseFormat = 'json' | 'text' | 'arrayBuffer';

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The answer's `x-request-id`. */
  requestId: string | null;
  /** The key this call sent (writes), for logs. */
  idempotencyKey: string | undefined;
  /** How many attempts the call took (1 when not retried). */
  attempts: number;
}

const WRITE_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRIED_STATUSES = new Set([500, 502, 503, 504, 429]);

/**
 * The result of one attempt: an answer (its body read in full; `malformed` when a success's body is
 * not the JSON asked for), no answer, or the caller's abort.
 */
type Attempt =
  | { kind: 'answer'; response: Response; body: unknown; malformed: boolean }
  | { kind: 'failed'; error: ConnectionError | TimeoutError }
  | { kind: 'aborted'; error: RequestAbortedError };

export class Transport {
  private readonly apiKey: string | undefined;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly policy: RetryPolicy;
  private readonly fetch: FetchLike;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly generateIdempotencyKey: () => string;

  constructor(options: TransportOptions) {
    this.apiKey = options.apiKey;
    this.base = apiBase(options.baseUrl);
    this.timeoutMs = positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.maxRetries = retries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (!fetchImpl) throw new TypeError('No fetch available: pass one as the `fetch` option');
    // Called unbound: browsers refuse `fetch` called on another object than the window.
    this.fetch = (url, init) => fetchImpl(url, init);
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.generateIdempotencyKey = options.generateIdempotencyKey ?? randomUuid;
  }

  /** Sends the call, retrying per the policy above; resolves with the answer or throws a `CommerceError`. */
  async request<T>(options: RequestOptions): Promise<ApiResponse<T>> {
    const url = this.url(options.path, options.query);
    const idempotencyKey = WRITE_METHODS.has(options.method) ? (options.idempotencyKey ?? this.generateIdempotencyKey()) : undefined;
    const init = this.init(options, idempotencyKey);
    const timeoutMs = positive(options.timeoutMs ?? this.timeoutMs, 'timeoutMs');
    const maxRetries = retries(options.maxRetries ?? this.maxRetries);
    const { signal } = options;

    for (let attempt = 0; ; attempt += 1) {
      if (signal?.aborted) throw withKey(new RequestAbortedError(signal.reason), idempotencyKey);
      const outcome = await this.attempt(url, init, timeoutMs, options.responseType ?? 'json', signal);
      if (outcome.kind === 'aborted') throw withKey(outcome.error, idempotencyKey);
      let error: CommerceError;
      if (outcome.kind === 'failed') {
        error = outcome.error;
      } else if (!outcome.response.ok) {
        error = errorFromResponse({ status: outcome.response.status, body: outcome.body, headers: outcome.response.headers, now: this.now() });
      } else if (outcome.malformed) {
        // A success whose body is not JSON: something answered wrongly; a retry would not help.
        throw withKey(malformedAnswer(outcome.response), idempotencyKey);
      } else {
        const { response } = outcome;
        const requestId = response.headers.get('x-request-id');
        return { data: outcome.body as T, status: response.status, headers: response.headers, requestId, idempotencyKey, attempts: attempt + 1 };
      }
      const delay = attempt < maxRetries ? this.retryDelay(error, attempt) : null;
      if (delay === null) throw withKey(error, idempotencyKey);
      await this.sleep(delay, signal);
    }
  }

  /** The full URL of a path under `/api/v1`, with its query. */
  url(path: string, query?: Query): string {
    if (!path.startsWith('/')) throw new TypeError(`A path starts with "/": ${path}`);
    const search = queryString(query);
    return `${this.base}${path}${search ? `?${search}` : ''}`;
  }

  /**
   * How long to wait before retrying after `error` (the `attempt`th attempt, 0-based, failed with
   * it), or null when it is not retried.
   */
  retryDelay(error: CommerceError, attempt: number): number | null {
    if (error instanceof ConnectionError || error instanceof TimeoutError) return this.backoff(attempt);
    if (!(error instanceof ApiError) || !isRetriedAnswer(error)) return null;
    if (error.retryAfter === null) return this.backoff(attempt);
    const asked = error.retryAfter * 1000;
    return asked > this.policy.maxServerWaitMs ? null : asked;
  }

  /** Full jitter: random(0, min(maxDelayMs, baseDelayMs × 2^attempt)). */
  backoff(attempt: number): number {
    const { baseDelayMs, maxDelayMs } = this.policy;
    return this.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  }

  private init(options: RequestOptions, idempotencyKey: string | undefined): RequestInit {
    // Browsers drop a User-Agent they do not allow (without failing): X-Client-User-Agent says it there.
    const headers = new Headers({ Accept: 'application/json', 'User-Agent': CLIENT_USER_AGENT, 'X-Client-User-Agent': CLIENT_USER_AGENT });
    if (this.apiKey !== undefined) headers.set('Authorization', `Bearer ${this.apiKey}`);
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      headers.set('Content-Type', options.rawBody.contentType);
      body = options.rawBody.content;
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    // Last, so the key sent is the one the answer and the errors report (pass it as idempotencyKey).
    if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKey);
    return { method: options.method, headers, body };
  }

  /** One attempt, body read included, within `timeoutMs`. Never throws. */
  private async attempt(url: string, init: RequestInit, timeoutMs: number, responseType: ResponseFormat, signal?: AbortSignal): Promise<Attempt> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new TimeoutError(timeoutMs));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // Raced against the signal too, so a fetch that ignores signals still times out.
      const response = await untilAborted(this.fetch(url, { ...init, signal: controller.signal }), controller.signal);
      const read = await untilAborted(readBody(response, responseType), controller.signal);
      return { kind: 'answer', response, ...read };
    } catch (cause) {
      if (signal?.aborted) return { kind: 'aborted', error: new RequestAbortedError(signal.reason) };
      if (timedOut) return { kind: 'failed', error: new TimeoutError(timeoutMs) };
      const reason = cause instanceof Error ? `: ${cause.message}` : '';
      return { kind: 'failed', error: new ConnectionError(`The request to ${new URL(url).host} got no answer${reason}`, { cause }) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function isRetriedAnswer(error: ApiError): boolean {
  return RETRIED_STATUSES.has(error.status) || (error.status === 409 && error.code === 'IDEMPOTENCY_KEY_IN_USE');
}

function withKey<E extends CommerceError>(error: E, idempotencyKey: string | undefined): E {
  error.idempotencyKey = idempotencyKey;
  return error;
}

async function readBody(response: Response, responseType: ResponseFormat): Promise<{ body: unknown; malformed: boolean }> {
  if (response.ok && responseType === 'arrayBuffer') return { body: await response.arrayBuffer(), malformed: false };
  const text = await response.text();
  if (response.ok && responseType === 'text') return { body: text, malformed: false };
  if (text === '') return { body: undefined, malformed: false };
  try {
    return { body: JSON.parse(text) as unknown, malformed: false };
  } catch {
    // An error answer keeps its text (errorFromResponse quotes it); a success's is malformed.
    return { body: text, malformed: response.ok };
  }
}

function malformedAnswer(response: Response): ApiError {
  return new ApiError({
    status: response.status,
    code: 'INVALID_RESPONSE',
    message: `HTTP ${response.status} answered a body that is not JSON`,
    requestId: response.headers.get('x-request-id'),
    headers: response.headers,
  });
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number of milliseconds, not ${value}`);
  return value;
}

function retries(value: number): number {
  if (!(Number.isInteger(value) && value >= 0)) throw new RangeError(`maxRetries must be a non-negative integer, not ${value}`);
  return value;
}
