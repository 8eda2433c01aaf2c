import { memoryLimiters } from './rate-limit-stores';
import { type RateLimitWindow, RateLimiter, type WindowLimiter } from './rate-limiter';

const limits = { perSecond: 20, perMinute: 100 };

describe('RateLimiter (memory)', () => {
  it('lets exactly the burst quota through when N requests arrive at once', async () => {
    const limiter = new RateLimiter(memoryLimiters);
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume('ws:a', limits)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused).toHaveLength(30);
    for (const d of refused) {
      expect(d.retryAfter).toBe(1);
      expect(d.windows?.find((w) => w.name === 'burst')).toMatchObject({ exceeded: true, remaining: 0, resetSeconds: 1 });
    }
  });

  it('does not charge a refused request to the other window', async () => {
    const limiter = new RateLimiter(memoryLimiters);
    await Promise.all(Array.from({ length: 30 }, () => limiter.consume('ws:a', limits)));
    const next = await limiter.consume('ws:a', { perSecond: 20, perMinute: 100 });
    expect(next.allowed).toBe(false);
    // 20 served, 11 refused by the burst window: the minute window counted only the 20.
    expect(next.windows?.find((w) => w.name === 'minute')).toMatchObject({ remaining: 80, exceeded: false });
  });

  it('refuses over the minute quota with the minute window`s wait', async () => {
    const limiter = new RateLimiter(memoryLimiters);
    const small = { perSecond: 1000, perMinute: 5 };
    const decisions = [];
    for (let i = 0; i < 6; i += 1) decisions.push(await limiter.consume('ws:a', small));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions[4].windows?.find((w) => w.name === 'minute')).toMatchObject({ remaining: 0, resetSeconds: 60 });
    const refused = decisions[5];
    expect(refused.retryAfter).toBeGreaterThan(55);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.windows?.find((w) => w.name === 'burst')).toMatchObject({ remaining: 995, exceeded: false });
  });

  it('counts each key on its own', async () => {
    const limiter = new RateLimiter(memoryLimiters);
    const one = { perSecond: 1, perMinute: 10 };
    expect((await limiter.consume('ws:a', one)).allowed).toBe(true);
    expect((await limiter.consume('ws:a', one)).allowed).toBe(false);
    expect((await limiter.consume('ws:b', one)).allowed).toBe(true);
  });

  it('opens a new burst window after a second', async () => {
    const limiter = new RateLimiter(memoryLimiters);
    const one = { perSecond: 1, perMinute: 10 };
    expect((await limiter.consume('ws:a', one)).allowed).toBe(true);
    expect((await limiter.consume('ws:a', one)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    const later = await limiter.consume('ws:a', one);
    expect(later.allowed).toBe(true);
    expect(later.windows?.find((w) => w.name === 'minute')).toMatchObject({ remaining: 8 });
  });

  it('makes one limiter per distinct window and quota', async () => {
    const made: string[] = [];
    const limiter = new RateLimiter((window: RateLimitWindow, quota: number) => {
      made.push(`${window.name}:${quota}`);
      return memoryLimiters(window, quota);
    });
    await limiter.consume('ws:a', limits);
    await limiter.consume('ws:b', limits);
    await limiter.consume('ws:c', { perSecond: 50, perMinute: 100 });
    expect(made).toEqual(['burst:20', 'minute:100', 'burst:50']);
  });

  it('lets requests through, and says so, when the counter store fails', async () => {
    const failing: WindowLimiter = {
      consume: () => Promise.reject(new Error('store down')),
      reward: () => Promise.reject(new Error('store down')),
    };
    const errors: unknown[] = [];
    const limiter = new RateLimiter(() => failing, { onStoreError: (e) => errors.push(e) });
    const decision = await limiter.consume('ws:a', limits);
    expect(decision).toEqual({ limits, allowed: true, windows: null, retryAfter: null });
    expect(errors).toHaveLength(1);
  });
});
