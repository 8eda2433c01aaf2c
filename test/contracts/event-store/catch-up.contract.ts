// The EventStore contract, part 3: catch-up subscriptions (history then live, resuming from a checkpoint).
import type { EventStore } from '@app/platform/event-store/event-store.port';

import { type EventStoreFixture, ids, newEvent, Puller, QUIET_MS, takeEvents } from './support';

export function catchUpSubscriptionContract(f: EventStoreFixture): void {
  describe('catch-up subscription', () => {
    let store: EventStore;
    const { stream, byPrefix, track } = f;
    beforeEach(() => {
      ({ store } = f);
    });

    const reopen = async (): Promise<void> => {
      store = await f.reopen();
    };

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
}
