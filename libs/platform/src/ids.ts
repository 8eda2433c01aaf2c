// Prefixed, time-sortable ids (`br_01J…`). Monotonic within a process, so ids made in the same
// millisecond still sort in creation order.
import { randomBytes } from 'node:crypto';

import { monotonicFactory } from 'ulid';

export const ID_PREFIXES = [
  'ws', 'key', 'br', 'inv', 'ing', 'mp', 'mt', 'ofr', 'trd', 'hld', 'ls', 'lot', 'rsv', 'au', 'wh', 'whd', 'evt',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

export const ID_GENERATOR = Symbol('ID_GENERATOR');

/**
 * Cryptographic randomness for ULIDs, drawn from a pooled buffer: ulid asks for one value per
 * character, and a syscall-backed call each time is measurable on the write path.
 */
function pooledRandom(): () => number {
  let pool = randomBytes(4096);
  let offset = 0;
  return () => {
    if (offset >= pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    const value = pool[offset] / 256;
    offset += 1;
    return value;
  };
}

export class UlidIdGenerator implements IdGenerator {
  private readonly ulid = monotonicFactory(pooledRandom());
  next(prefix: IdPrefix): string {
    return `${prefix}_${this.ulid()}`;
  }
}
