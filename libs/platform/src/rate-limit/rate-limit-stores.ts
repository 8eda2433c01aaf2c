// Where the rate-limit counters live: process memory (one API process, the embedded default) or
// the shared MongoDB read store (READ_STORE=mongo), so every API process counts against the same
// quota.
import type { Db } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo } from 'rate-limiter-flexible';

import type { RateLimitWindow, WindowLimiterFactory } from './rate-limiter';

/** The MongoDB collection of the counters: one document per window and key, removed by a TTL index. */
export const RATE_LIMIT_COLLECTION = 'rate_limits';

function memoryLimiter(window: RateLimitWindow, quota: number): RateLimiterMemory {
  return new RateLimiterMemory({ keyPrefix: `rl_${window.name}`, points: quota, duration: window.seconds });
}

export const memoryLimiters: WindowLimiterFactory = memoryLimiter;

/**
 * Counters in MongoDB (atomic `findOneAndUpdate` upserts). Not exercised by the test suites (no
 * MongoDB here); it type-checks against rate-limiter-flexible's and the driver's types.
 *
 * - The key prefix depends on the window only, not on the quota, so a workspace whose limits change
 *   keeps its current counts (the memory store starts it over instead).
 * - A key over its quota is also blocked in this process's memory until its window ends, so a
 *   client hammering a closed window does not cost a database round trip per request.
 * - Should MongoDB fail, each process falls back to counting in its own memory (the insurance
 *   limiter): limits stay enforced, per process, instead of failing every request.
 */
export function mongoLimiters(db: Db): WindowLimiterFactory {
  return (window, quota) =>
    new RateLimiterMongo({
      storeClient: db,
      tableName: RATE_LIMIT_COLLECTION,
      keyPrefix: `rl_${window.name}`,
      points: quota,
      duration: window.seconds,
      inMemoryBlockOnConsumed: quota + 1,
      insuranceLimiter: memoryLimiter(window, quota),
    });
}
