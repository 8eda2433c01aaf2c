// The EventStore contract, part 1: append and appendMany (expected revisions, retries, batches).
import type { AppendResult, EventStore } from '@app/platform/event-store/event-store.port';

import {
  type ContractContext,
  type EventStoreFixture,
  expectWrongRevision,
  ids,
  newEvent,
} from './support';

/** Where an append left the stream (what a repeat of it must answer the same). */
const where = ({ nextRevision, position }: AppendResult) => ({ nextRevision, position });

export function appendContract(f: EventStoreFixture): void {
  describe('append', () => {
    let ctx: ContractContext;
    let store: EventStore;
    const { stream } = f;
    beforeEach(() => {
      ({ ctx, store } = f);
    });

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
      expect(where(await store.append(stream(), batch, { expectedRevision: 'no_stream' }))).toEqual(where(first));
      const more = [newEvent('t.c')];
      const second = await store.append(stream(), more, { expectedRevision: 1 });
      expect(where(await store.append(stream(), more, { expectedRevision: 1 }))).toEqual(where(second));
      const events = await store.readStream(stream());
      expect(ids(events)).toEqual(ids([...batch, ...more]));
      expect(second.position).toBe(events[2].position);
      // What an append says it stored (where the store says) is what the stream holds.
      if (first.recorded) expect(first.recorded).toEqual(events.slice(0, 2));
      if (second.recorded) expect(second.recorded).toEqual(events.slice(2));
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
      expect((await store.appendMany(writes)).map(where)).toEqual(results.map(where));
      if (results[0].recorded) expect(results[0].recorded).toEqual(await store.readStream(stream('a')));
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
}
