// The EventStore contract, part 2: reading (readStream, readAll and its filters, headPosition, ping).
import { randomUUID } from 'node:crypto';

import type { EventStore } from '@app/platform/event-store/event-store.port';

import { type EventStoreFixture, ids, newEvent } from './support';

export function readingContract(f: EventStoreFixture): void {
  describe('reading', () => {
    let store: EventStore;
    const { stream, byPrefix } = f;
    beforeEach(() => {
      ({ store } = f);
    });

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
}
