// The contract of answering from the write, on any pair of stores: a write through the
// InlineEventStore leaves its resource's read model up to date before it resolves — a GET or a
// list right after it sees it, with no wait — and answers the documents as it decided them; the
// runner, applying the same events later, changes nothing; a read model behind the log is brought
// up from it. Run for the embedded stores (SQLite + SQLite) and for production's (EventStoreDB +
// MongoDB), which share no transaction: the log commits first, the documents right after.
import { randomBytes } from 'node:crypto';

import { InlineEventStore } from '@app/platform/projections/inline-event-store';
import { InlineProjections } from '@app/platform/projections/inline-projections';
import { documentProjection, type StreamDoc } from '@app/platform/projections/projection';
import { ProjectionRunner } from '@app/platform/projections/projection-runner';
import type { EventStore, NewEvent } from '@app/platform/event-store/event-store.port';
import type { ReadStore } from '@app/platform/read-store/read-store.port';

export interface InlineStores {
  events: EventStore;
  reads: ReadStore;
  cleanup(): Promise<void>;
}

interface ThingDoc extends StreamDoc {
  workspaceId: string;
  names: string[];
}
const THINGS = { name: 'contract_things', indexes: [{ name: 'by_ws', fields: [['workspaceId', 1]] }] } as const;
const things = documentProjection<ThingDoc>({
  name: 'contract_things',
  version: 1,
  collection: THINGS,
  eventTypes: ['thing.named'],
  inline: true,
  evolve: (doc, event) => ({ id: '', revision: 0, workspaceId: event.metadata.workspaceId, names: [...(doc?.names ?? []), (event.data as { name: string }).name] }),
});

export function inlineProjectionsContract(name: string, open: () => Promise<InlineStores>): void {
  describe(`answering from the write (${name})`, () => {
    let stores: InlineStores;
    let inline: InlineProjections;
    let events: InlineEventStore;
    let runner: ProjectionRunner;
    // Streams and a workspace of this run's own: a shared server is left as found.
    const run = randomBytes(4).toString('hex');
    const workspaceId = `ws_${run}`;
    const stream = (n: number) => `thing-${run}_${n}`;
    const id = (n: number) => `${run}_${n}`;
    const named = (value: string): NewEvent => ({ type: 'thing.named', data: { name: value }, metadata: { workspaceId, schemaVersion: 1 } });
    const collection = () => stores.reads.collection<ThingDoc>(THINGS);

    beforeEach(async () => {
      stores = await open();
      inline = new InlineProjections(stores.events, stores.reads);
      events = new InlineEventStore(stores.events, inline);
      runner = new ProjectionRunner(stores.events, stores.reads, { inline });
      runner.register(things);
    });

    afterEach(async () => {
      await runner.stop();
      await stores.cleanup();
    });

    it('a GET and a list right after the write see it, with no wait; the write hands its documents back', async () => {
      const written = await events.append(stream(1), [named('a'), named('b')], { expectedRevision: 'no_stream' });
      const expected = { id: id(1), revision: 1, workspaceId, names: ['a', 'b'] };
      expect(written.documents?.get(THINGS.name, id(1))).toEqual(expected);
      expect(await collection().get(id(1))).toEqual(expected);
      expect((await collection().find({ workspaceId })).items).toEqual([expected]);
    });

    it('the runner, applying the same events afterwards, changes nothing', async () => {
      await events.append(stream(1), [named('a')], { expectedRevision: 'no_stream' });
      await events.append(stream(1), [named('b')], { expectedRevision: 0 });
      await runner.catchUp();
      expect(await collection().get(id(1))).toEqual({ id: id(1), revision: 1, workspaceId, names: ['a', 'b'] });
    });

    it('each write answers the state it decided, though the read model is already past it', async () => {
      await events.append(stream(1), [named('a')], { expectedRevision: 'no_stream' });
      const b = await stores.events.append(stream(1), [named('b')], { expectedRevision: 0 });
      await stores.events.append(stream(1), [named('c')], { expectedRevision: 1 });
      await runner.catchUp();
      const recorded = await stores.events.readStream(stream(1), { fromRevision: 1 });
      const answer = await inline.project([{ streamId: stream(1), revision: b.nextRevision, recorded: recorded.slice(0, 1) }]);
      expect(answer.get(THINGS.name, id(1))).toEqual({ id: id(1), revision: 1, workspaceId, names: ['a', 'b'] });
      expect(await collection().get(id(1))).toMatchObject({ revision: 2 });
    });

    it('a repeat, which appends nothing, answers the stream as the log holds it, not a read model behind it', async () => {
      await events.append(stream(1), [named('a')], { expectedRevision: 'no_stream' });
      await stores.events.append(stream(1), [named('b')], { expectedRevision: 0 }); // not through the write path
      expect(await inline.document(things, stream(1))).toEqual({ id: id(1), revision: 1, workspaceId, names: ['a', 'b'] });
      expect(await collection().get(id(1))).toMatchObject({ revision: 1 });
      expect(await inline.document(things, stream(2))).toBeNull();
    });
  });
}
