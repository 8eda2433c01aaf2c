// Prefixed, time-sortable ids (`br_01J…`). Monotonic within a process, so ids made in the same
// millisecond still sort in creation order.
import { randomBytes } from 'node:crypto';

import { monotonicFactory } from 'ulid';

export const ID_PREFIXES = [
  'ws', 'key', 'br', 'inv', 'ing', 'mp', 'mt', 'ofr', 'trd', 'hld', 'ls', 'lot', 'rsv', 'au', 'aur', 'wh', 'whd', 'evt', 'ntf',
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

/** 16 fresh random bytes per uuid, cut from a pooled buffer: one randomBytes call per 256 uuids. */
let uuidPool = Buffer.alloc(0);
let uuidOffset = 0;
function uuidRandomness(): Buffer {
  if (uuidOffset + 16 > uuidPool.length) {
    uuidPool = randomBytes(4096);
    uuidOffset = 0;
  }
  const bytes = uuidPool.subarray(uuidOffset, uuidOffset + 16);
  uuidOffset += 16;
  return bytes;
}

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then randomness. Event ids are the primary
 * key of an index in the log; time-ordered ids append to its right edge instead of dirtying a
 * random page per event (random v4 ids cost a page write each once the log outgrows the cache).
 */
export function uuidv7(nowMs: number = Date.now()): string {
  const bytes = uuidRandomness();
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
