// Shared by the EventStore contract's parts: the adapter's context, test events, a pulling reader
// with deadlines, and the assertions and waits the parts have in common.
import { randomUUID } from 'node:crypto';

import {
  type EventFilter,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@app/platform/event-store/event-store.port';

export interface ContractContext {
  store: EventStore;
  /** Simulates a restart: closes the store and opens a new instance on the same data. */
  reopen: () => Promise<EventStore>;
  cleanup: () => Promise<void>;
  /** `appendMany` is all-or-nothing on this adapter. */
  atomicBatches?: boolean;
}

/** Long enough for a real server to deliver, short enough to keep each test well under 5 s. */
export const WAIT_MS = 2_000;
/** How long "nothing more arrives" is watched for. */
export const QUIET_MS = 300;

/** A NewEvent whose id is known up front, so tests can compare what was read with what was written. */
export type TestEvent = NewEvent & { id: string };

export function newEvent(type: string, data: Record<string, unknown> = {}): TestEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { workspaceId: 'ws_contract', correlationId: randomUUID(), actor: 'test', schemaVersion: 1 },
  };
}

/**
 * Pulls from an async iterator with a deadline. A pull that timed out stays pending and is
 * reused by the next call, so no item is lost between calls.
 */
export class Puller<T> {
  private pending?: Promise<IteratorResult<T>>;
  private readonly iterator: AsyncIterator<T>;

  constructor(iterable: AsyncIterable<T>) {
    this.iterator = iterable[Symbol.asyncIterator]();
  }

  async next(timeoutMs = WAIT_MS): Promise<T | undefined> {
    this.pending ??= this.iterator.next();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([this.pending, timeout]).finally(() => clearTimeout(timer));
    if (result === 'timeout') return undefined;
    this.pending = undefined;
    return result.done ? undefined : result.value;
  }

  async take(count: number, timeoutMs = WAIT_MS): Promise<T[]> {
    const deadline = Date.now() + timeoutMs;
    const items: T[] = [];
    while (items.length < count) {
      const item = await this.next(Math.max(1, deadline - Date.now()));
      if (item === undefined) throw new Error(`expected ${count} items within ${timeoutMs} ms, got ${items.length}`);
      items.push(item);
    }
    return items;
  }
}

/** Catch-up subscriptions yield batches; the contract is about the events in them. */
export async function takeEvents(puller: Puller<RecordedEvent[]>, count: number): Promise<RecordedEvent[]> {
  const deadline = Date.now() + WAIT_MS;
  const events: RecordedEvent[] = [];
  while (events.length < count) {
    const batch = await puller.next(Math.max(1, deadline - Date.now()));
    if (!batch) throw new Error(`expected ${count} events within ${WAIT_MS} ms, got ${events.length}`);
    expect(batch.length).toBeGreaterThan(0);
    events.push(...batch);
  }
  return events;
}

export async function expectWrongRevision(
  attempt: Promise<unknown>,
  expected: { streamId: string; expected: ExpectedRevision; actual: number | 'no_stream' },
): Promise<void> {
  const error: unknown = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  if (error instanceof WrongExpectedRevisionError) {
    expect({ streamId: error.streamId, expected: error.expected, actual: error.actual }).toEqual(expected);
  }
}

export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const ids = (events: readonly { id: string }[]): string[] => events.map((e) => e.id);

/** What every part sees of the suite's per-test state (getters: the values change per test). */
export interface EventStoreFixture {
  readonly ctx: ContractContext;
  readonly store: EventStore;
  /** Unique per test: every stream, type and group name of the test starts with it. */
  readonly prefix: string;
  stream(suffix?: string): string;
  byPrefix(): EventFilter;
  /** Closes `closable` after the test. */
  track<S extends { close(): Promise<void> }>(closable: S): S;
  /** Simulates a restart (ContractContext.reopen) and returns the new store. */
  reopen(): Promise<EventStore>;
}
