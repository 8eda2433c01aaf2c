// Request rate limiting with two fixed windows per key (a one-second burst window and a minute
// window), counted by rate-limiter-flexible: in process memory by default, in MongoDB when several
// API processes share the read store (see rate-limit-stores.ts).
import { RateLimiterRes } from 'rate-limiter-flexible';

/** The quotas of one key: requests per second (burst) and per minute. */
export interface RateLimits {
  perSecond: number;
  perMinute: number;
}

export type WindowName = 'burst' | 'minute';

/** One window as the IETF RateLimit fields name it (`"burst";q=20;w=1`). */
export interface RateLimitWindow {
  name: WindowName;
  seconds: number;
  quota(limits: RateLimits): number;
}

/** In the order the RateLimit-Policy header lists them. */
export const RATE_LIMIT_WINDOWS: readonly RateLimitWindow[] = [
  { name: 'burst', seconds: 1, quota: (l) => l.perSecond },
  { name: 'minute', seconds: 60, quota: (l) => l.perMinute },
];

/** The counter of one window after a request. */
export interface WindowState {
  name: WindowName;
  quota: number;
  windowSeconds: number;
  remaining: number;
  /** Whole seconds until the window starts over (at least 1). */
  resetSeconds: number;
  /** This request went over the window's quota. */
  exceeded: boolean;
}

export interface RateLimitDecision {
  limits: RateLimits;
  allowed: boolean;
  /** Every window's counter after this request; null when the counter store failed (let through). */
  windows: WindowState[] | null;
  /** Whole seconds to wait before retrying (the latest reset among the exceeded windows); null when allowed. */
  retryAfter: number | null;
}

/** The part of a rate-limiter-flexible limiter this service uses (memory and Mongo alike). */
export interface WindowLimiter {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  reward(key: string, points?: number): Promise<RateLimiterRes>;
}

/** Makes the limiter of one window with one quota; rate-limit-stores.ts has the two stores. */
export type WindowLimiterFactory = (window: RateLimitWindow, quota: number) => WindowLimiter;

export interface RateLimiterOptions {
  /** Told when the counter store fails; the request is let through (a limiter outage must not become an API outage). */
  onStoreError?(error: unknown): void;
}

/** A refund into a window about to close would land in the next one (as a negative count): skip it. */
const REFUND_MIN_MS = 50;

export const toWholeSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export class RateLimiter {
  // rate-limiter-flexible fixes the quota per limiter instance, so there is one per distinct
  // (window, quota): a handful in practice (the defaults plus each distinct workspace override).
  private readonly limiters = new Map<string, WindowLimiter>();
  // The limiters of each (perSecond, perMinute) pair, found without building a key per request.
  private readonly byLimits = new PerLimitsCache<readonly WindowLimiter[]>();

  constructor(
    private readonly createLimiter: WindowLimiterFactory,
    private readonly options: RateLimiterOptions = {},
  ) {}

  /**
   * Counts one request of `key` in both windows (or `points` of them: the widget counts a want
   * list's lines). A request refused by one window is not charged to the other, so the remaining
   * counts in the headers stay what the client can still send.
   */
  async consume(key: string, limits: RateLimits, points = 1): Promise<RateLimitDecision> {
    const limiters = this.byLimits.get(limits, () => RATE_LIMIT_WINDOWS.map((w) => this.limiter(w, w.quota(limits))));
    const outcomes = await Promise.all(
      limiters.map((l) =>
        l.consume(key, points).then(
          (res) => ({ accepted: true as const, res }),
          (error: unknown) => ({ accepted: false as const, error }),
        ),
      ),
    );
    const results: Array<{ res: RateLimiterRes; exceeded: boolean }> = [];
    for (const outcome of outcomes) {
      if (outcome.accepted) results.push({ res: outcome.res, exceeded: false });
      else if (outcome.error instanceof RateLimiterRes) results.push({ res: outcome.error, exceeded: true });
      else return this.failOpen(limits, outcome.error);
    }
    const allowed = results.every((r) => !r.exceeded);
    if (!allowed) {
      try {
        await Promise.all(
          results.map(async (r, i) => {
            if (!r.exceeded && r.res.msBeforeNext > REFUND_MIN_MS) r.res = await limiters[i].reward(key, points);
          }),
        );
      } catch (error) {
        // The refund is a courtesy; the refusal stands.
        this.options.onStoreError?.(error);
      }
    }
    const windows = RATE_LIMIT_WINDOWS.map((w, i): WindowState => {
      const { res, exceeded } = results[i];
      return {
        name: w.name,
        quota: w.quota(limits),
        windowSeconds: w.seconds,
        remaining: exceeded ? 0 : Math.max(0, res.remainingPoints),
        resetSeconds: toWholeSeconds(res.msBeforeNext),
        exceeded,
      };
    });
    const retryAfter = allowed ? null : Math.max(...windows.filter((w) => w.exceeded).map((w) => w.resetSeconds));
    return { limits, allowed, windows, retryAfter };
  }

  private limiter(window: RateLimitWindow, quota: number): WindowLimiter {
    const id = `${window.name}:${quota}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = this.createLimiter(window, quota);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private failOpen(limits: RateLimits, error: unknown): RateLimitDecision {
    this.options.onStoreError?.(error);
    return { limits, allowed: true, windows: null, retryAfter: null };
  }
}

/** A value per (perSecond, perMinute) pair, made once. */
export class PerLimitsCache<T> {
  private readonly values = new Map<number, Map<number, T>>();

  get(limits: RateLimits, make: () => T): T {
    let inner = this.values.get(limits.perSecond);
    if (!inner) {
      inner = new Map();
      this.values.set(limits.perSecond, inner);
    }
    let value = inner.get(limits.perMinute);
    if (value === undefined) {
      value = make();
      inner.set(limits.perMinute, value);
    }
    return value;
  }
}
