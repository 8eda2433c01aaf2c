import { mapError } from '../http/error-mapping';
import { rateLimitedError, rateLimitHeaders, rateLimitPolicy, tightestWindow } from './rate-limit-headers';
import type { RateLimitDecision, WindowState } from './rate-limiter';

const limits = { perSecond: 20, perMinute: 100 };
const burst = (remaining: number, resetSeconds = 1, exceeded = false): WindowState => ({
  name: 'burst',
  quota: 20,
  windowSeconds: 1,
  remaining,
  resetSeconds,
  exceeded,
});
const minute = (remaining: number, resetSeconds: number, exceeded = false): WindowState => ({
  name: 'minute',
  quota: 100,
  windowSeconds: 60,
  remaining,
  resetSeconds,
  exceeded,
});
const allowed = (windows: WindowState[]): RateLimitDecision => ({ limits, allowed: true, windows, retryAfter: null });

describe('rate-limit headers', () => {
  it('names both windows in RateLimit-Policy (IETF httpapi draft syntax)', () => {
    expect(rateLimitPolicy({ limits })).toBe('"burst";q=20;w=1, "minute";q=100;w=60');
    expect(rateLimitPolicy({ limits: { perSecond: 50, perMinute: 600 } })).toBe('"burst";q=50;w=1, "minute";q=600;w=60');
  });

  it.each([
    ['the burst window when it has less left', [burst(3), minute(90, 40)], '"burst";r=3;t=1'],
    ['the minute window when it has less left', [burst(19), minute(7, 42)], '"minute";r=7;t=42'],
    ['on a tie, the window that resets later', [burst(5), minute(5, 30)], '"minute";r=5;t=30'],
  ])('RateLimit reports %s', (_name, windows, expected) => {
    expect(rateLimitHeaders(allowed(windows))).toEqual({
      'RateLimit-Policy': '"burst";q=20;w=1, "minute";q=100;w=60',
      RateLimit: expected,
    });
  });

  it('on a refusal reports the exceeded window, with t equal to Retry-After', () => {
    const decision: RateLimitDecision = { limits, allowed: false, windows: [burst(0, 1, true), minute(0, 37)], retryAfter: 1 };
    expect(tightestWindow(decision.windows ?? [])).toMatchObject({ name: 'burst' });
    expect(rateLimitHeaders(decision)).toEqual({
      'RateLimit-Policy': '"burst";q=20;w=1, "minute";q=100;w=60',
      RateLimit: '"burst";r=0;t=1',
      'Retry-After': '1',
    });
  });

  it('when both windows are exceeded, waits for the later one', () => {
    const decision: RateLimitDecision = {
      limits,
      allowed: false,
      windows: [burst(0, 1, true), minute(0, 37, true)],
      retryAfter: 37,
    };
    expect(rateLimitHeaders(decision)).toMatchObject({ RateLimit: '"minute";r=0;t=37', 'Retry-After': '37' });
  });

  it('sends only the policy when the counters are unknown (store failure)', () => {
    expect(rateLimitHeaders({ limits, allowed: true, windows: null, retryAfter: null })).toEqual({
      'RateLimit-Policy': '"burst";q=20;w=1, "minute";q=100;w=60',
    });
  });

  it('answers 429 RATE_LIMITED with an integer retry_after that the message states', () => {
    const decision: RateLimitDecision = {
      limits,
      allowed: false,
      windows: [burst(12), minute(0, 42, true)],
      retryAfter: 42,
    };
    const mapped = mapError(rateLimitedError(decision, 'this workspace'));
    expect(mapped.status).toBe(429);
    expect(mapped.body).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many requests: this workspace is over its rate limit of 100 requests per minute. Retry after 42 seconds.',
      details: { retry_after: 42 },
    });
    const one = rateLimitedError({ ...decision, windows: [burst(0, 1, true), minute(50, 30)], retryAfter: 1 }, 'this IP address');
    expect(one.message).toBe('Too many requests: this IP address is over its rate limit of 20 requests per second. Retry after 1 second.');
  });
});
