// What a rate-limit decision tells the client: the IETF httpapi RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers) on every response, and 429 RATE_LIMITED with Retry-After
// when over a quota.
import { ApiError } from '../http/api-error';
import { PerLimitsCache, RATE_LIMIT_WINDOWS, type RateLimitDecision, type WindowState } from './rate-limiter';

const UNIT: Record<WindowState['name'], string> = { burst: 'second', minute: 'minute' };

// Formatted once per distinct pair of limits: it is on every response.
const policies = new PerLimitsCache<string>();

/** `"burst";q=20;w=1, "minute";q=100;w=60`: the quotas that apply to this request. */
export function rateLimitPolicy({ limits }: Pick<RateLimitDecision, 'limits'>): string {
  return policies.get(limits, () => RATE_LIMIT_WINDOWS.map((w) => `"${w.name}";q=${w.quota(limits)};w=${w.seconds}`).join(', '));
}

/**
 * The window a client should pace itself by. The draft: "the server MUST reply with the RateLimit
 * header field related to the time window with the lower remaining keyword values"; on a tie, the
 * longer wait. On a refusal, the exceeded window that resets last, so `t` equals Retry-After.
 */
export function tightestWindow(windows: readonly WindowState[]): WindowState {
  const exceeded = windows.filter((w) => w.exceeded);
  const candidates = exceeded.length > 0 ? exceeded : windows;
  return candidates.reduce((best, w) =>
    w.remaining < best.remaining || (w.remaining === best.remaining && w.resetSeconds > best.resetSeconds) ? w : best,
  );
}

/** Every header to set on the response, by name. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = { 'RateLimit-Policy': rateLimitPolicy(decision) };
  if (decision.windows && decision.windows.length > 0) {
    const w = tightestWindow(decision.windows);
    headers.RateLimit = `"${w.name}";r=${w.remaining};t=${w.resetSeconds}`;
  }
  if (decision.retryAfter !== null) headers['Retry-After'] = String(decision.retryAfter);
  return headers;
}

/** 429 RATE_LIMITED; `subject` says whose quota it is ("this workspace", "this IP address"). */
export function rateLimitedError(decision: RateLimitDecision, subject: string): ApiError {
  const wait = decision.retryAfter ?? 1;
  const window = decision.windows ? tightestWindow(decision.windows) : null;
  const quota = window ? ` of ${window.quota} requests per ${UNIT[window.name]}` : '';
  return new ApiError(
    429,
    'RATE_LIMITED',
    `Too many requests: ${subject} is over its rate limit${quota}. Retry after ${wait} second${wait === 1 ? '' : 's'}.`,
    { retry_after: wait },
  );
}
