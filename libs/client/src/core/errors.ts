// The client's errors: `ApiError` and its subclasses for an error answer of the API (`{ code,
// message, details? }` with a status and `x-request-id`), and `ConnectionError`, `TimeoutError`,
// `RequestAbortedError` for the calls that got no answer. `errorFromResponse` picks the class from
// the answer's code (then its status), so an unknown code or a non-JSON body (a proxy's 502 page)
// is still an `ApiError`, coded `HTTP_<status>`. Browser-safe: no Node modules.

/** An issue of `VALIDATION_FAILED`: the field (`maxPrice`, `items.0.quantity`) and what is wrong with it. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * The base of every error the client throws, so one `instanceof CommerceError` tells the client's
 * errors from a bug in the caller's code.
 */
export class CommerceError extends Error {
  override readonly name: string = 'CommerceError';
  /**
   * The `Idempotency-Key` the failed call sent (every POST, PUT, PATCH and DELETE has one; a GET
   * has none). Set by the transport: retrying the call later with this key cannot apply it twice.
   */
  idempotencyKey: string | undefined;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Down-levelled builds (ES5 classes) lose the subclass prototype of a built-in: restore it so
    // `instanceof` holds whatever the bundler targets.
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** The answer's `x-request-id`: quote it when asking support about a call. */
  requestId?: string | null;
  headers?: Headers;
  /** Seconds the server asked to wait before a retry (`details.retry_after`, else `Retry-After`). */
  retryAfter?: number | null;
}

/** An error answer of the API. `code` is stable and meant for programs; `message` is for humans. */
export class ApiError extends CommerceError {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly requestId: string | null;
  readonly headers: Headers | undefined;
  /** Seconds the server asked to wait before a retry (429, 503, 409 IDEMPOTENCY_KEY_IN_USE); null when it did not say. */
  readonly retryAfter: number | null;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
    this.headers = init.headers;
    this.retryAfter = init.retryAfter ?? null;
  }
}

/** 400 VALIDATION_FAILED: `issues` lists each field in error (empty when the server named none). */
export class ValidationError extends ApiError {
  override readonly name: string = 'ValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(init: ApiErrorInit) {
    super(init);
    this.issues = issuesOf(init.details?.issues);
  }
}

/** 401 UNAUTHORIZED: the API key is missing or invalid. */
export class UnauthorizedError extends ApiError {
  override readonly name: string = 'UnauthorizedError';
}

/**
 * 403 INSUFFICIENT_SCOPE: `requiredScope` is the scope the key lacks; `requiredScopes` every scope
 * the route needs (the server lists them when there are several; else just `requiredScope`).
 */
export class InsufficientScopeError extends ApiError {
  override readonly name: string = 'InsufficientScopeError';
  readonly requiredScope: string | undefined;
  readonly requiredScopes: readonly string[];

  constructor(init: ApiErrorInit) {
    super(init);
    const one = init.details?.requiredScope;
    this.requiredScope = typeof one === 'string' ? one : undefined;
    const many = stringsOf(init.details?.requiredScopes);
    this.requiredScopes = many ?? (this.requiredScope === undefined ? [] : [this.requiredScope]);
  }
}

/** 404 NOT_FOUND: no such resource (or route) in this workspace. */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
}

/**
 * 409: the resource's state refused the call — CONFLICT (a unique value taken, or a concurrent
 * change won), INSUFFICIENT_QUANTITY, RESERVE_TOO_LOW, LIMIT_EXCEEDED, and INVALID_TRANSITION (its
 * own subclass). The idempotency 409s are `IdempotencyError`s instead: they concern the key, not
 * the resource.
 */
export class ConflictError extends ApiError {
  override readonly name: string = 'ConflictError';
}

/**
 * 409 INVALID_TRANSITION: the resource's status does not allow the move. Status machines (trades,
 * inventory items) name `from`, `to` and the `allowed` moves; other refusals (a cancelled hold, an
 * archived automation) carry only `details.status`, and these three are then undefined.
 */
export class InvalidTransitionError extends ConflictError {
  override readonly name: string = 'InvalidTransitionError';
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly allowed: readonly string[] | undefined;

  constructor(init: ApiErrorInit) {
    super(init);
    const { from, to, allowed } = init.details ?? {};
    this.from = typeof from === 'string' ? from : undefined;
    this.to = typeof to === 'string' ? to : undefined;
    this.allowed = stringsOf(allowed);
  }
}

/**
 * 412 PRECONDITION_FAILED: a write sent with `ifMatch` found the resource at another version (it
 * changed since you read it); nothing was changed. `currentETag` is its version now: read it again,
 * decide again, and send that.
 */
export class PreconditionFailedError extends ApiError {
  override readonly name: string = 'PreconditionFailedError';
  readonly currentETag: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init);
    const current = init.details?.currentETag;
    this.currentETag = typeof current === 'string' ? current : undefined;
  }
}

/**
 * The `Idempotency-Key` itself was the problem: IDEMPOTENCY_KEY_IN_USE (409, the first request
 * with it still runs; the transport retries it), IDEMPOTENCY_KEY_REUSED (422, the key went with
 * another request: use a new key for a new request) or IDEMPOTENCY_REPLAY_UNAVAILABLE (409, the
 * request already took effect but its stored answer can no longer be read).
 */
export class IdempotencyError extends ApiError {
  override readonly name: string = 'IdempotencyError';
}

/** 429 RATE_LIMITED: `retryAfter` is the seconds to wait (`details.retry_after`, else `Retry-After`). */
export class RateLimitedError extends ApiError {
  override readonly name: string = 'RateLimitedError';
}

/** No answer: the connection failed or broke (DNS, refused, reset, a socket closed mid-answer). */
export class ConnectionError extends CommerceError {
  override readonly name: string = 'ConnectionError';
}

/** No answer within the call's timeout (each attempt has the whole timeout). */
export class TimeoutError extends CommerceError {
  override readonly name: string = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The caller's `AbortSignal` aborted the call; it is never retried. Named `AbortError`, as fetch's
 * own abort is, so code that tells aborts apart by `error.name` treats it alike.
 */
export class RequestAbortedError extends CommerceError {
  override readonly name: string = 'AbortError';
  /** The signal's `reason`. */
  readonly reason: unknown;

  constructor(reason: unknown) {
    super('The request was aborted by the caller', { cause: reason });
    this.reason = reason;
  }
}

type ApiErrorClass = new (init: ApiErrorInit) => ApiError;

/** The class of each code the API documents (libs/platform/src/openapi/error-catalog.ts). */
const BY_CODE: Readonly<Record<string, ApiErrorClass>> = {
  VALIDATION_FAILED: ValidationError,
  UNAUTHORIZED: UnauthorizedError,
  INSUFFICIENT_SCOPE: InsufficientScopeError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  INVALID_TRANSITION: InvalidTransitionError,
  INSUFFICIENT_QUANTITY: ConflictError,
  RESERVE_TOO_LOW: ConflictError,
  LIMIT_EXCEEDED: ConflictError,
  IDEMPOTENCY_KEY_IN_USE: IdempotencyError,
  IDEMPOTENCY_KEY_REUSED: IdempotencyError,
  IDEMPOTENCY_REPLAY_UNAVAILABLE: IdempotencyError,
  RATE_LIMITED: RateLimitedError,
  PRECONDITION_FAILED: PreconditionFailedError,
};

/** For a code the client does not know (a newer server, a proxy): the class its status implies. */
const BY_STATUS: Readonly<Record<number, ApiErrorClass>> = {
  401: UnauthorizedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  429: RateLimitedError,
};

export interface ErrorResponse {
  status: number;
  /** The parsed JSON body, or its text when it is not JSON, or undefined when empty. */
  body: unknown;
  headers?: Headers;
  /** Milliseconds since the epoch, to read a `Retry-After` given as a date; `Date.now()` by default. */
  now?: number;
}

/** The error an error answer stands for. Never throws, whatever the body. */
export function errorFromResponse({ status, body, headers, now = Date.now() }: ErrorResponse): ApiError {
  const requestId = headers?.get('x-request-id') ?? null;
  const shaped = errorBodyOf(body);
  const code = shaped?.code ?? `HTTP_${status}`;
  const message = shaped?.message ?? unshapedMessage(status, body);
  const details = shaped?.details;
  const retryAfter = retryAfterSeconds(details, headers, now);
  const Class = BY_CODE[code] ?? BY_STATUS[status] ?? ApiError;
  return new Class({ status, code, message, details, requestId, headers, retryAfter });
}

/**
 * The wait the server asked for, in seconds: `details.retry_after` when the body has it, else the
 * `Retry-After` header (seconds, or an HTTP date); null when neither says.
 */
export function retryAfterSeconds(details: Readonly<Record<string, unknown>> | undefined, headers: Headers | undefined, now: number): number | null {
  const fromBody = details?.retry_after;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
  const header = headers?.get('retry-after')?.trim();
  if (!header) return null;
  if (/^\d+(\.\d+)?$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}

function errorBodyOf(body: unknown): { code: string; message: string; details?: Record<string, unknown> } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { code, message, details } = body as Record<string, unknown>;
  if (typeof code !== 'string' || code === '' || typeof message !== 'string') return undefined;
  const isRecord = details !== null && typeof details === 'object' && !Array.isArray(details);
  return isRecord ? { code, message, details: details as Record<string, unknown> } : { code, message };
}

/** A message for an answer without the API's error shape: its status and the start of its text. */
function unshapedMessage(status: number, body: unknown): string {
  const text = typeof body === 'string' ? body.trim() : body === undefined ? '' : JSON.stringify(body);
  const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return `HTTP ${status} without an API error body` + (excerpt ? `: ${excerpt}` : '');
}

function issuesOf(value: unknown): ValidationIssue[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((issue): issue is Record<string, unknown> => issue !== null && typeof issue === 'object')
    .map((issue) => ({ path: String(issue.path ?? ''), message: String(issue.message ?? '') }));
}

function stringsOf(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined;
}
