// Idempotency records in the ReadStore: a key is claimed atomically, held "in flight" while its
// request runs, then holds the response to replay until it expires. They are not a projection of
// the log: they record HTTP exchanges, not domain facts, so a rebuild never touches them.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { Clock } from '../clock';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store.port';
import { idempotencyRecordId } from './idempotency-key';

export const IDEMPOTENCY_KEYS: CollectionSpec = {
  name: 'idempotency_keys',
  indexes: [{ name: 'by_expires', fields: [['expiresAt', 1]] }],
};

/**
 * What a replay sends back. `body` is absent when the original response had none. A sensitive
 * route's answer (@Idempotent({ sensitive: true })) has `sealedBody` instead: the body's JSON text
 * sealed with the SecretBox (see sealed-response.ts), never the body in clear.
 */
export interface StoredResponse {
  status: number;
  body?: unknown;
  /** 'sb1.<keyId>.<iv>.<tag>.<ciphertext>', context = workspace id + ':' + record id. */
  sealedBody?: string;
  headers: Record<string, string>;
  /** The request id of the request that produced it (sent back as `Original-Request`). */
  requestId: string;
}

export interface IdempotencyRecord extends Doc {
  workspaceId: string;
  fingerprint: string;
  state: 'in_flight' | 'completed';
  /** Which request holds the claim: only it may complete or release the record. */
  owner: string;
  /** An in-flight claim past this instant is abandoned (its process died): a retry may run. */
  lockedUntil: string;
  createdAt: string;
  expiresAt: string;
  response?: StoredResponse;
}

export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  fingerprint: string;
}

export interface Claim {
  id: string;
  owner: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

export interface IdempotencyOptions {
  /** How long a key is kept after its first use. */
  ttlMs: number;
  /** How long an in-flight claim holds before it counts as abandoned. */
  leaseMs: number;
  /** How long a request finding its key in flight waits for the outcome before giving up. */
  waitMs: number;
  /** How often such a request looks again. */
  pollMs?: number;
}

const DEFAULT_POLL_MS = 50;
const PURGE_BATCH = 200;

export class IdempotencyStore {
  constructor(
    private readonly reads: ReadStore,
    private readonly clock: Clock,
    private readonly options: IdempotencyOptions,
  ) {}

  private get records() {
    return this.reads.collection<IdempotencyRecord>(IDEMPOTENCY_KEYS);
  }

  /**
   * Forgets every stored answer (`projections reset`: they answer for writes of a log that was
   * lost or replaced, so a retry with such a key must run again). Returns how many there were.
   */
  async clear(): Promise<number> {
    const count = await this.records.count({});
    await this.records.clear();
    return count;
  }

  /**
   * Claims the key, or says what to do instead. While another request holds it, waits (bounded by
   * `waitMs`) for that one to finish, so a retry racing its original gets the original's response.
   */
  async begin(request: IdempotentRequest): Promise<ClaimOutcome> {
    // Wall time, not the injected clock: this bounds how long a client waits, not a domain rule.
    const deadline = performance.now() + this.options.waitMs;
    for (;;) {
      const outcome = await this.claim(request);
      if (outcome.kind !== 'in_flight' || performance.now() >= deadline) return outcome;
      await this.waitWhileInFlight(idempotencyRecordId(request.workspaceId, request.key), deadline);
    }
  }

  /** One atomic attempt: creates the record when it is absent, expired or abandoned. */
  async claim(request: IdempotentRequest): Promise<ClaimOutcome> {
    const id = idempotencyRecordId(request.workspaceId, request.key);
    // Made outside the transaction: Mongo may run its function more than once.
    const owner = randomUUID();
    return this.reads.transaction(async () => {
      const now = this.clock.now();
      const existing = await this.records.get(id);
      if (existing && isLive(existing, now)) {
        if (existing.fingerprint !== request.fingerprint) return { kind: 'mismatch' };
        if (existing.state === 'completed' && existing.response) return { kind: 'replay', response: existing.response };
        return { kind: 'in_flight' };
      }
      await this.records.put({
        id,
        workspaceId: request.workspaceId,
        fingerprint: request.fingerprint,
        state: 'in_flight',
        owner,
        lockedUntil: new Date(now.getTime() + this.options.leaseMs).toISOString(),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + this.options.ttlMs).toISOString(),
      });
      return { kind: 'claimed', claim: { id, owner } };
    });
  }

  /** Stores the response to replay. False when the claim was lost (abandoned and taken over). */
  async complete(claim: Claim, response: StoredResponse): Promise<boolean> {
    return this.reads.transaction(async () => {
      const record = await this.records.get(claim.id);
      if (!record || record.owner !== claim.owner || record.state !== 'in_flight') return false;
      await this.records.put({ ...record, state: 'completed', response });
      return true;
    });
  }

  /** Frees the key without a stored response (a 5xx or a crash is not an answer to pin). */
  async release(claim: Claim): Promise<boolean> {
    return this.reads.transaction(async () => {
      const record = await this.records.get(claim.id);
      if (!record || record.owner !== claim.owner || record.state !== 'in_flight') return false;
      return this.records.delete(claim.id);
    });
  }

  /** Deletes expired records; returns how many. Expired records already count as absent. */
  async purgeExpired(): Promise<number> {
    let purged = 0;
    for (;;) {
      const now = this.clock.now();
      const page = await this.records.find({ expiresAt: { $lte: now.toISOString() } }, { sort: [['expiresAt', 1]], limit: PURGE_BATCH });
      if (page.items.length === 0) return purged;
      // Checked again inside the transaction: a request may have claimed the key anew meanwhile.
      purged += await this.reads.transaction(async () => {
        let deleted = 0;
        for (const { id } of page.items) {
          const current = await this.records.get(id);
          if (current && current.expiresAt <= now.toISOString() && (await this.records.delete(id))) deleted += 1;
        }
        return deleted;
      });
      if (page.items.length < PURGE_BATCH) return purged;
    }
  }

  private async waitWhileInFlight(id: string, deadline: number): Promise<void> {
    const pollMs = this.options.pollMs ?? DEFAULT_POLL_MS;
    const held = await this.records.get(id);
    // Anything but the same live in-flight claim is worth another claim attempt.
    const stillHeld = (record: IdempotencyRecord | null): boolean =>
      record !== null && record.owner === held?.owner && record.state === 'in_flight' && isLive(record, this.clock.now());
    if (!stillHeld(held)) return;
    while (performance.now() < deadline) {
      await sleep(Math.min(pollMs, Math.max(0, deadline - performance.now())));
      if (!stillHeld(await this.records.get(id))) return;
    }
  }
}

/** Not expired, and — when in flight — not abandoned. */
function isLive(record: IdempotencyRecord, now: Date): boolean {
  const at = now.toISOString();
  if (record.expiresAt <= at) return false;
  return record.state === 'completed' || record.lockedUntil > at;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
