// The EventStore contract, part 4: persistent subscriptions (ack, nack, park, competing consumers, restarts).
import type { EventStore, PersistentSubscriptionEvent } from '@app/platform/event-store/event-store.port';

import {
  type EventStoreFixture,
  eventually,
  ids,
  newEvent,
  Puller,
  QUIET_MS,
  WAIT_MS,
} from './support';

export function persistentSubscriptionContract(f: EventStoreFixture): void {
  describe('persistent subscription', () => {
    let store: EventStore;
    let prefix: string;
    const { stream, byPrefix, track } = f;
    beforeEach(() => {
      ({ store, prefix } = f);
    });

    const reopen = async (): Promise<void> => {
      store = await f.reopen();
    };

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
}
