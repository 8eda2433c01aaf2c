// The one contract suite every EventStore adapter runs (see *.int.spec.ts next to each adapter).
// Stream names, event types and group names are unique per test, so it also runs on a shared ESDB.
import { randomUUID } from 'node:crypto';

import {
  type EventFilter,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type PersistentSubscriptionEvent,
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
const WAIT_MS = 2_000;
/** How long "nothing more arrives" is watched for. */
const QUIET_MS = 300;

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
async function takeEvents(puller: Puller<RecordedEvent[]>, count: number): Promise<RecordedEvent[]> {
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

async function expectWrongRevision(
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

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ids = (events: readonly { id: string }[]): string[] => events.map((e) => e.id);

export function eventStoreContract(name: string, open: () => Promise<ContractContext>): void {
  describe(`EventStore contract: ${name}`, () => {
    let ctx: ContractContext;
    let store: EventStore;
    let prefix: string;
    const closers: { close(): Promise<void> }[] = [];
    const track = <S extends { close(): Promise<void> }>(closable: S): S => {
      closers.push(closable);
      return closable;
    };
    const stream = (suffix = 'a'): string => `${prefix}${suffix}`;
    const byPrefix = (): EventFilter => ({ streamPrefixes: [prefix] });

    beforeEach(async () => {
      ctx = await open();
      store = ctx.store;
      prefix = `contract_${randomUUID().replace(/-/g, '')}-`;
    });

    afterEach(async () => {
      await Promise.all(closers.splice(0).map((c) => c.close()));
      await ctx.cleanup();
    });

    const reopen = async (): Promise<void> => {
      store = await ctx.reopen();
    };

    describe('append', () => {
      it('no_stream creates the stream and is refused once it exists', async () => {
        const first = await store.append(stream(), [newEvent('t.created')], { expectedRevision: 'no_stream' });
        expect(first.nextRevision).toBe(0);
        expect(first.position).toBeGreaterThan(0);
        await expectWrongRevision(store.append(stream(), [newEvent('t.again')], { expectedRevision: 'no_stream' }), {
          streamId: stream(),
          expected: 'no_stream',
          actual: 0,
        });
      });

      it('an exact revision appends; a stale or premature one is refused', async () => {
        await store.append(stream(), [newEvent('t.a'), newEvent('t.b')], { expectedRevision: 'no_stream' });
        const next = await store.append(stream(), [newEvent('t.c')], { expectedRevision: 1 });
        expect(next.nextRevision).toBe(2);
        await expectWrongRevision(store.append(stream(), [newEvent('t.d')], { expectedRevision: 1 }), {
          streamId: stream(),
          expected: 1,
          actual: 2,
        });
        await expectWrongRevision(store.append(stream('missing'), [newEvent('t.d')], { expectedRevision: 0 }), {
          streamId: stream('missing'),
          expected: 0,
          actual: 'no_stream',
        });
        expect(await store.readStream(stream())).toHaveLength(3);
      });

      it('any appends whatever the stream state', async () => {
        expect((await store.append(stream(), [newEvent('t.a')], { expectedRevision: 'any' })).nextRevision).toBe(0);
        expect((await store.append(stream(), [newEvent('t.b')], { expectedRevision: 'any' })).nextRevision).toBe(1);
      });

      it('stream_exists requires the stream', async () => {
        await expectWrongRevision(store.append(stream(), [newEvent('t.a')], { expectedRevision: 'stream_exists' }), {
          streamId: stream(),
          expected: 'stream_exists',
          actual: 'no_stream',
        });
        await store.append(stream(), [newEvent('t.a')], { expectedRevision: 'no_stream' });
        const result = await store.append(stream(), [newEvent('t.b')], { expectedRevision: 'stream_exists' });
        expect(result.nextRevision).toBe(1);
      });

      it('re-appending the same event ids does not duplicate and returns the same result', async () => {
        const batch = [newEvent('t.a'), newEvent('t.b')];
        const first = await store.append(stream(), batch, { expectedRevision: 'no_stream' });
        expect(await store.append(stream(), batch, { expectedRevision: 'no_stream' })).toEqual(first);
        const more = [newEvent('t.c')];
        const second = await store.append(stream(), more, { expectedRevision: 1 });
        expect(await store.append(stream(), more, { expectedRevision: 1 })).toEqual(second);
        const events = await store.readStream(stream());
        expect(ids(events)).toEqual(ids([...batch, ...more]));
        expect(second.position).toBe(events[2].position);
      });

      it('appendMany appends to several streams in order; a retry of the same ids does not duplicate', async () => {
        await store.append(stream('b'), [newEvent('t.a')], { expectedRevision: 'no_stream' });
        const writes = [
          { streamId: stream('a'), events: [newEvent('t.a'), newEvent('t.b')], expectedRevision: 'no_stream' as const },
          { streamId: stream('b'), events: [newEvent('t.c')], expectedRevision: 0 },
        ];
        const results = await store.appendMany(writes);
        expect(results.map((r) => r.nextRevision)).toEqual([1, 1]);
        expect(results[1].position).toBeGreaterThan(results[0].position);
        expect(await store.appendMany(writes)).toEqual(results);
        expect(ids(await store.readStream(stream('a')))).toEqual(ids(writes[0].events));
        expect(await store.readStream(stream('b'))).toHaveLength(2);
        expect(await store.appendMany([])).toEqual([]);
      });

      it('appendMany refuses a batch with a wrong expected revision', async () => {
        await store.append(stream('b'), [newEvent('t.a')], { expectedRevision: 'no_stream' });
        await expectWrongRevision(
          store.appendMany([
            { streamId: stream('a'), events: [newEvent('t.a')], expectedRevision: 'no_stream' },
            { streamId: stream('b'), events: [newEvent('t.b')], expectedRevision: 'no_stream' },
          ]),
          { streamId: stream('b'), expected: 'no_stream', actual: 0 },
        );
        if (ctx.atomicBatches) expect(await store.readStream(stream('a'))).toEqual([]);
      });
    });

    describe('reading', () => {
      it('readStream returns the stream in revision order, from a revision, and [] when missing', async () => {
        const events = [newEvent('t.a', { n: 1 }), newEvent('t.b', { n: 2 }), newEvent('t.c', { n: 3 })];
        const appended = await store.append(stream(), events, { expectedRevision: 'no_stream' });
        const read = await store.readStream(stream());
        expect(read.map((e) => [e.id, e.type, e.data, e.revision, e.streamId])).toEqual(
          events.map((e, i) => [e.id, e.type, e.data, i, stream()]),
        );
        expect(read[0].metadata).toEqual(events[0].metadata);
        expect(new Date(read[0].createdAt).toISOString()).toBe(read[0].createdAt);
        expect(read[2].position).toBe(appended.position);
        expect(ids(await store.readStream(stream(), { fromRevision: 1 }))).toEqual(ids(events.slice(1)));
        expect(await store.readStream(stream('missing'))).toEqual([]);
      });

      it('readAll reads after a position (exclusive) with a limit; positions strictly increase', async () => {
        const head = await store.headPosition();
        const written = [newEvent('t.a'), newEvent('t.b'), newEvent('t.c'), newEvent('t.d')];
        await store.append(stream('x'), written.slice(0, 2), { expectedRevision: 'no_stream' });
        await store.append(stream('y'), written.slice(2), { expectedRevision: 'no_stream' });
        const all = await store.readAll({ fromPosition: head, filter: byPrefix() });
        expect(ids(all)).toEqual(ids(written));
        all.slice(1).forEach((e, i) => expect(e.position).toBeGreaterThan(all[i].position));
        expect(all[0].position).toBeGreaterThan(head);
        const page = await store.readAll({ fromPosition: all[1].position, limit: 2, filter: byPrefix() });
        expect(ids(page)).toEqual(ids(written.slice(2)));
        expect(await store.headPosition()).toBeGreaterThanOrEqual(all[3].position);
      });

      it('readAll filters by event type and by stream prefix', async () => {
        const head = await store.headPosition();
        const wanted = `t.wanted.${randomUUID()}`;
        const a = [newEvent(wanted), newEvent('t.other'), newEvent(wanted)];
        const b = [newEvent('t.other'), newEvent(wanted)];
        await store.append(stream('orders-1'), a, { expectedRevision: 'no_stream' });
        await store.append(stream('carts-1'), b, { expectedRevision: 'no_stream' });
        const byType = await store.readAll({ fromPosition: head, filter: { types: [wanted] } });
        expect(ids(byType)).toEqual(ids([a[0], a[2], b[1]]));
        const byStream = await store.readAll({ fromPosition: head, filter: { streamPrefixes: [stream('carts-')] } });
        expect(ids(byStream)).toEqual(ids(b));
        const both = await store.readAll({
          fromPosition: head,
          filter: { types: [wanted], streamPrefixes: [stream('orders-')] },
        });
        expect(ids(both)).toEqual(ids([a[0], a[2]]));
      });

      it('ping answers', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('catch-up subscription', () => {
      it('delivers history then live events, each exactly once and in order', async () => {
        const head = await store.headPosition();
        const history = [newEvent('t.a'), newEvent('t.b'), newEvent('t.c')];
        await store.append(stream(), history, { expectedRevision: 'no_stream' });
        const puller = new Puller(track(store.subscribe({ fromPosition: head, filter: byPrefix() })));
        expect(ids(await takeEvents(puller, 3))).toEqual(ids(history));
        const live = [newEvent('t.d'), newEvent('t.e')];
        await store.append(stream(), live.slice(0, 1), { expectedRevision: 2 });
        await store.append(stream('other'), live.slice(1), { expectedRevision: 'no_stream' });
        const delivered = await takeEvents(puller, 2);
        expect(ids(delivered)).toEqual(ids(live));
        expect(delivered[1].position).toBeGreaterThan(delivered[0].position);
        expect(await puller.next(QUIET_MS)).toBeUndefined();
      });

      it('resumes from a saved checkpoint after a restart and delivers exactly the rest', async () => {
        const head = await store.headPosition();
        const events = [newEvent('t.a'), newEvent('t.b'), newEvent('t.c'), newEvent('t.d'), newEvent('t.e')];
        await store.append(stream(), events.slice(0, 3), { expectedRevision: 'no_stream' });
        const first = track(store.subscribe({ fromPosition: head, filter: byPrefix() }));
        const seen = await takeEvents(new Puller(first), 2);
        const checkpoint = seen[1].position; // the consumer has processed two events
        await first.close();
        await reopen();
        await store.append(stream(), events.slice(3), { expectedRevision: 2 });
        const puller = new Puller(track(store.subscribe({ fromPosition: checkpoint, filter: byPrefix() })));
        expect(ids(await takeEvents(puller, 3))).toEqual(ids(events.slice(2)));
        expect(await puller.next(QUIET_MS)).toBeUndefined();
      });
    });

    describe('persistent subscription', () => {
      const group = (): string => `${prefix}group`;
      const subscribeGroup = (bufferSize = 10): Puller<PersistentSubscriptionEvent> =>
        new Puller(track(store.persistentSubscription(group(), { filter: byPrefix(), startFrom: 'start', bufferSize })));

      it('ack settles; nack retry redelivers the event with retryCount 1', async () => {
        const events = [newEvent('t.a'), newEvent('t.b'), newEvent('t.c')];
        await store.append(stream(), events, { expectedRevision: 'no_stream' });
        const consumer = subscribeGroup();
        const first = await consumer.take(2);
        expect(first.map((d) => [d.event.id, d.retryCount])).toEqual([
          [events[0].id, 0],
          [events[1].id, 0],
        ]);
        await first[0].ack();
        await first[1].nack('retry', 'try again');
        // Where a retried event lands relative to newer ones is the server's choice.
        const rest = await consumer.take(2);
        expect(rest.map((d) => [d.event.id, d.retryCount]).sort()).toEqual(
          [
            [events[1].id, 1],
            [events[2].id, 0],
          ].sort(),
        );
        await Promise.all(rest.map((d) => d.ack()));
        expect(await consumer.next(QUIET_MS)).toBeUndefined();
      });

      it('a type filter hands out only events of those types, in log order', async () => {
        // Types unique to this run: the log may hold other runs' events (a shared server).
        const wanted = [`${prefix}t.wanted`, `${prefix}t.also`];
        const events = [newEvent(wanted[0]), newEvent(`${prefix}t.other`), newEvent(wanted[1]), newEvent(`${prefix}t.other`), newEvent(wanted[0])];
        await store.append(stream(), events, { expectedRevision: 'no_stream' });
        const consumer = new Puller(track(store.persistentSubscription(`${prefix}typed`, { filter: { types: wanted }, startFrom: 'start', bufferSize: 10 })));
        const delivered = await consumer.take(3);
        expect(delivered.map((d) => d.event.id)).toEqual([events[0].id, events[2].id, events[4].id]);
        await Promise.all(delivered.map((d) => d.ack()));
        expect(await consumer.next(QUIET_MS)).toBeUndefined();
      });

      it('park sets the event aside: listed by parkedEvents, never redelivered', async () => {
        const events = [newEvent('t.a'), newEvent('t.b')];
        await store.append(stream(), events, { expectedRevision: 'no_stream' });
        const consumer = subscribeGroup();
        const [bad, good] = await consumer.take(2);
        expect(bad.event.id).toBe(events[0].id);
        await bad.nack('park', 'cannot handle');
        await good.ack();
        const parked = await eventually(
          () => store.parkedEvents(group()),
          (found) => found.length > 0,
        );
        expect(ids(parked)).toEqual([events[0].id]);
        expect(parked[0].type).toBe('t.a');
        expect(await consumer.next(QUIET_MS)).toBeUndefined();
        expect(await store.parkedEvents(`${prefix}unknown-group`)).toEqual([]);
      });

      it('two competing consumers of one group never get the same event', async () => {
        const events = Array.from({ length: 12 }, (_, i) => newEvent('t.item', { i }));
        await store.append(stream(), events, { expectedRevision: 'no_stream' });
        const consumers = [subscribeGroup(3), subscribeGroup(3)];
        const seen: string[][] = [[], []];
        const deadline = Date.now() + WAIT_MS * 2;
        const total = (): number => seen[0].length + seen[1].length;
        await Promise.all(
          consumers.map(async (consumer, i) => {
            while (total() < events.length && Date.now() < deadline) {
              const delivered = await consumer.next(50);
              if (!delivered) continue;
              seen[i].push(delivered.event.id);
              await delivered.ack();
            }
          }),
        );
        const all = [...seen[0], ...seen[1]];
        expect(new Set(all).size).toBe(all.length);
        expect([...all].sort()).toEqual(ids(events).sort());
        expect(await consumers[0].next(QUIET_MS)).toBeUndefined();
        expect(await consumers[1].next(1)).toBeUndefined();
      });

      it('after a restart the group resumes: acked events stay settled, un-acked ones come back', async () => {
        const events = [newEvent('t.a'), newEvent('t.b'), newEvent('t.c')];
        await store.append(stream(), events, { expectedRevision: 'no_stream' });
        const before = subscribeGroup();
        const [acked, unacked] = await before.take(2);
        await acked.ack();
        expect(unacked.event.id).toBe(events[1].id);
        await reopen(); // like a crash: the subscription is not closed first
        const after = subscribeGroup();
        const redelivered = await after.take(2);
        expect(ids(redelivered.map((d) => d.event)).sort()).toEqual(ids(events.slice(1)).sort());
        await Promise.all(redelivered.map((d) => d.ack()));
        expect(await after.next(QUIET_MS)).toBeUndefined();
      });
    });
  });
}
