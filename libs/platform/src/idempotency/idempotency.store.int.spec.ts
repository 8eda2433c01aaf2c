import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Clock } from '../clock';
import type { Collection, CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { idempotencyRecordId } from './idempotency-key';
import { type Claim, type ClaimOutcome, IDEMPOTENCY_KEYS, type IdempotencyOptions, type IdempotencyRecord, IdempotencyStore, type StoredResponse } from './idempotency.store';

class FakeClock implements Clock {
  private at = Date.parse('2025-01-01T00:00:00.000Z');
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

const HOUR = 60 * 60 * 1000;
const options: IdempotencyOptions = { ttlMs: 24 * HOUR, leaseMs: 60_000, waitMs: 0, pollMs: 5 };
const request = { workspaceId: 'ws_A', key: 'key-1', fingerprint: 'fp-1' };
const response: StoredResponse = { status: 201, body: { id: 'br_1' }, headers: {}, requestId: 'req-1' };

/** Runs `between` after the next `find` has read its page and before it returns: a race, on cue. */
class RacingReadStore implements ReadStore {
  between: (() => Promise<void>) | null = null;
  constructor(private readonly inner: ReadStore) {}

  changeToken(): Promise<string | null> {
    return this.inner.changeToken();
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    const c = this.inner.collection<T>(spec);
    return {
      spec: c.spec,
      get: (id) => c.get(id),
      getMany: (ids) => c.getMany(ids),
      put: (doc) => c.put(doc),
      patch: (id, changes) => c.patch(id, changes),
      delete: (id) => c.delete(id),
      count: (filter) => c.count(filter),
      clear: () => c.clear(),
      find: async (filter, options) => {
        const page = await c.find(filter, options);
        const between = this.between;
        this.between = null;
        await between?.();
        return page;
      },
    };
  }
  transaction<R>(fn: () => Promise<R>): Promise<R> {
    return this.inner.transaction(fn);
  }
  ping(): Promise<void> {
    return this.inner.ping();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function claimOf(outcome: ClaimOutcome): Claim {
  if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
  return outcome.claim;
}

describe('IdempotencyStore (SQLite)', () => {
  let dir: string;
  let reads: SqliteReadStore;
  let clock: FakeClock;
  let store: IdempotencyStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-idem-'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
    clock = new FakeClock();
    store = new IdempotencyStore(reads, clock, options);
  });

  afterEach(async () => {
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('claims a new key, then replays the stored response for the same request', async () => {
    const claim = claimOf(await store.begin(request));
    expect(await store.complete(claim, response)).toBe(true);
    expect(await store.begin(request)).toEqual({ kind: 'replay', response });
  });

  it('answers mismatch for the same key with another fingerprint, in flight or completed', async () => {
    const claim = claimOf(await store.begin(request));
    expect(await store.begin({ ...request, fingerprint: 'fp-2' })).toEqual({ kind: 'mismatch' });
    await store.complete(claim, response);
    expect(await store.begin({ ...request, fingerprint: 'fp-2' })).toEqual({ kind: 'mismatch' });
  });

  it('keeps keys per workspace: another workspace may use the same key', async () => {
    const a = claimOf(await store.begin(request));
    await store.complete(a, response);
    const b = await store.begin({ ...request, workspaceId: 'ws_B', fingerprint: 'fp-other' });
    expect(b.kind).toBe('claimed');
  });

  it('stores the fingerprint, times and hashed id, never the key itself', async () => {
    await store.begin(request);
    const record = await reads.collection<IdempotencyRecord>(IDEMPOTENCY_KEYS).get(idempotencyRecordId('ws_A', 'key-1'));
    expect(record).toMatchObject({
      workspaceId: 'ws_A',
      fingerprint: 'fp-1',
      state: 'in_flight',
      createdAt: '2025-01-01T00:00:00.000Z',
      lockedUntil: '2025-01-01T00:01:00.000Z',
      expiresAt: '2025-01-02T00:00:00.000Z',
    });
    expect(JSON.stringify(record)).not.toContain('key-1');
  });

  it('answers in_flight while the first request runs and no wait is allowed', async () => {
    claimOf(await store.begin(request));
    expect(await store.begin(request)).toEqual({ kind: 'in_flight' });
  });

  it('keeps a completed key for the whole TTL, then treats it as absent', async () => {
    await store.complete(claimOf(await store.begin(request)), response);
    clock.advance(24 * HOUR - 1);
    expect((await store.begin(request)).kind).toBe('replay');
    clock.advance(1);
    const again = await store.begin({ ...request, fingerprint: 'fp-2' });
    expect(again.kind).toBe('claimed');
  });

  it('frees a released key (5xx) for a retry, even with another body', async () => {
    const claim = claimOf(await store.begin(request));
    expect(await store.release(claim)).toBe(true);
    expect((await store.begin({ ...request, fingerprint: 'fp-2' })).kind).toBe('claimed');
  });

  it('lets a retry take over a claim abandoned past its lease (a crashed process); the late owner cannot overwrite it', async () => {
    const crashed = claimOf(await store.begin(request));
    clock.advance(options.leaseMs - 1);
    expect((await store.begin(request)).kind).toBe('in_flight');
    clock.advance(1);
    const retry = claimOf(await store.begin(request));
    expect(retry.owner).not.toBe(crashed.owner);
    expect(await store.complete(crashed, { ...response, body: { id: 'late' } })).toBe(false);
    expect(await store.release(crashed)).toBe(false);
    expect(await store.complete(retry, response)).toBe(true);
    expect(await store.begin(request)).toEqual({ kind: 'replay', response });
  });

  describe('a request finding its key in flight', () => {
    it('waits for the first to complete and replays its response', async () => {
      const waiting = new IdempotencyStore(reads, clock, { ...options, waitMs: 5000 });
      const claim = claimOf(await store.begin(request));
      const second = waiting.begin(request);
      const completing = delay(50).then(() => store.complete(claim, response));
      const [outcome] = await Promise.all([second, completing]);
      expect(outcome).toEqual({ kind: 'replay', response });
    });

    it('claims the key itself when the first is released meanwhile', async () => {
      const waiting = new IdempotencyStore(reads, clock, { ...options, waitMs: 5000 });
      const claim = claimOf(await store.begin(request));
      const second = waiting.begin(request);
      const releasing = delay(50).then(() => store.release(claim));
      const [outcome] = await Promise.all([second, releasing]);
      expect(outcome.kind).toBe('claimed');
    });

    it('gives up with in_flight after the bounded wait', async () => {
      const waiting = new IdempotencyStore(reads, clock, { ...options, waitMs: 150 });
      claimOf(await store.begin(request));
      const started = Date.now();
      expect(await waiting.begin(request)).toEqual({ kind: 'in_flight' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    });
  });

  // Across processes the same holds through BEGIN IMMEDIATE: test/idempotency-in-flight.e2e.spec.ts runs two
  // servers on one DATA_DIR (two connections in one process would block its only thread).
  it('gives a key to exactly one of many concurrent claims', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.claim(request)));
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'in_flight')).toHaveLength(19);
  });

  it('purges expired records only, and never one claimed anew', async () => {
    const records = reads.collection<IdempotencyRecord>(IDEMPOTENCY_KEYS);
    await store.complete(claimOf(await store.begin({ ...request, key: 'old' })), response);
    clock.advance(12 * HOUR);
    await store.complete(claimOf(await store.begin({ ...request, key: 'young' })), response);
    clock.advance(12 * HOUR);
    expect(await store.purgeExpired()).toBe(1);
    expect(await records.get(idempotencyRecordId('ws_A', 'old'))).toBeNull();
    expect(await records.get(idempotencyRecordId('ws_A', 'young'))).not.toBeNull();

    clock.advance(12 * HOUR);
    claimOf(await store.begin({ ...request, key: 'young' })); // expired, so claimed anew
    expect(await store.purgeExpired()).toBe(0);
    expect(await records.get(idempotencyRecordId('ws_A', 'young'))).toMatchObject({ state: 'in_flight' });
  });

  it('does not purge a key claimed anew between finding it expired and deleting it', async () => {
    const racing = new RacingReadStore(reads);
    const purger = new IdempotencyStore(racing, clock, options);
    await store.complete(claimOf(await store.begin(request)), response);
    clock.advance(24 * HOUR);
    racing.between = async () => {
      claimOf(await store.begin(request));
    };
    expect(await purger.purgeExpired()).toBe(0);
    expect(await store.begin(request)).toEqual({ kind: 'in_flight' });
  });
});
