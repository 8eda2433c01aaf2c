// Inline projections on the embedded stores: an append through the InlineEventStore leaves the
// resource's document up to date before it resolves, and hands it back; the runner, applying the
// same events later, changes nothing; a document behind the log (rebuilt, or a write from
// elsewhere) is brought up from the log, never left stale.
import { inlineProjectionsContract } from '@app/testing/contracts/inline-projections.contract';
import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';

import { handleCommand, handleCommands } from '../domain';
import type { NewEvent } from '../event-store/event-store.port';
import { RecordedNotVisibleError } from '../sqlite/storage-fault';
import { InlineEventStore } from './inline-event-store';
import { InlineProjections } from './inline-projections';
import { documentProjection, type StreamDoc } from './projection';
import { CHECKPOINTS, ProjectionRunner } from './projection-runner';

interface ThingDoc extends StreamDoc {
  names: string[];
}
const THINGS = { name: 'things', indexes: [] } as const;
const thingProjection = documentProjection<ThingDoc>({
  name: 'things',
  version: 1,
  collection: THINGS,
  eventTypes: ['thing.named'],
  inline: true,
  evolve: (doc, event) => ({ id: '', revision: 0, names: [...(doc?.names ?? []), (event.data as { name: string }).name] }),
});

const meta = { workspaceId: 'ws_1', schemaVersion: 1 };
const named = (name: string): NewEvent => ({ type: 'thing.named', data: { name }, metadata: meta });
const other: NewEvent = { type: 'thing.other', data: {}, metadata: meta };

describe('inline projections', () => {
  let stores: TempStores;
  let inline: InlineProjections;
  let events: InlineEventStore;
  let runner: ProjectionRunner;

  beforeEach(() => {
    stores = openTempStores('cc-inline-');
    inline = new InlineProjections(stores.events, stores.reads);
    events = new InlineEventStore(stores.events, inline);
    runner = new ProjectionRunner(stores.events, stores.reads, { inline });
    runner.register(thingProjection);
  });

  afterEach(async () => {
    await runner.stop();
    await closeTempStores(stores);
  });

  const things = () => stores.reads.collection<ThingDoc>(THINGS);

  it('brings the document up to date before the append resolves, and hands it back', async () => {
    const created = await events.append('thing-1', [named('a'), named('b')], { expectedRevision: 'no_stream' });
    expect(created.documents?.get('things', '1')).toEqual({ id: '1', revision: 1, names: ['a', 'b'] });
    expect(await things().get('1')).toEqual({ id: '1', revision: 1, names: ['a', 'b'] });

    const [one, two] = await events.appendMany([
      { streamId: 'thing-1', events: [named('c')], expectedRevision: 1 },
      { streamId: 'thing-2', events: [named('x')], expectedRevision: 'no_stream' },
    ]);
    expect(one.documents?.get('things', '1')).toMatchObject({ revision: 2, names: ['a', 'b', 'c'] });
    expect(two.documents?.get('things', '2')).toMatchObject({ revision: 0, names: ['x'] });
    // Events no inline projection follows: nothing to do, nothing handed back.
    expect((await events.append('thing-1', [other], { expectedRevision: 2 })).documents?.get('things', '1')).toBeUndefined();
  });

  it('applied twice is applied once: the runner, coming second, changes nothing', async () => {
    await events.append('thing-1', [named('a')], { expectedRevision: 'no_stream' });
    await events.append('thing-1', [named('b')], { expectedRevision: 0 });
    await runner.catchUp();
    expect(await things().get('1')).toEqual({ id: '1', revision: 1, names: ['a', 'b'] });
    // And the other way round: what the runner applied first, the write does not apply again.
    await stores.events.append('thing-1', [named('c')], { expectedRevision: 1 });
    await runner.catchUp();
    const again = await inline.project([{ streamId: 'thing-1', revision: 2, recorded: await stores.events.readStream('thing-1', { fromRevision: 2 }) }]);
    expect(again.get('things', '1')).toEqual({ id: '1', revision: 2, names: ['a', 'b', 'c'] });
  });

  it('answers each write as it decided, even when the read model is already past it', async () => {
    await events.append('thing-1', [named('a')], { expectedRevision: 'no_stream' });
    const recorded = await stores.events.append('thing-1', [named('b')], { expectedRevision: 0 });
    await stores.events.append('thing-1', [named('c')], { expectedRevision: 1 });
    await runner.catchUp(); // the runner applies b and c before b's write projects
    const b = await inline.project([{ streamId: 'thing-1', revision: recorded.nextRevision, recorded: recorded.recorded }]);
    expect(b.get('things', '1')).toEqual({ id: '1', revision: 1, names: ['a', 'b'] });
    expect(await things().get('1')).toEqual({ id: '1', revision: 2, names: ['a', 'b', 'c'] }); // left as it is
  });

  it('the runner here passes over what a write applied, and applies it again after a reset', async () => {
    const evolve = jest.spyOn(thingProjection, 'evolve');
    const folded = () => evolve.mock.calls.map(([, event]) => (event.data as { name: string }).name);
    await runner.start();
    const written = await events.append('thing-1', [named('a'), named('b')], { expectedRevision: 'no_stream' });
    expect(await runner.waitFor(written.position, 5_000, ['things'])).toBe(true);
    expect(folded()).toEqual(['a', 'b']); // by the write; the runner passed over them, not read again
    await stores.events.append('thing-1', [named('c')], { expectedRevision: 1 }); // not through the write path
    const head = await stores.events.headPosition();
    expect(await runner.waitFor(head, 5_000, ['things'])).toBe(true);
    expect(folded()).toEqual(['a', 'b', 'c']); // c by the runner
    expect(await things().get('1')).toEqual({ id: '1', revision: 2, names: ['a', 'b', 'c'] });

    // Another process resets the projection (a rebuild): the writes' marks do not survive it.
    await events.append('thing-2', [named('x')], { expectedRevision: 'no_stream' });
    await stores.reads.transaction(async () => {
      await things().clear();
      await stores.reads.collection(CHECKPOINTS).put({ id: 'things', position: 0, version: 1, updatedAt: new Date().toISOString() });
    });
    await events.append('thing-3', [named('y')], { expectedRevision: 'no_stream' });
    expect(await runner.waitFor(await stores.events.headPosition(), 5_000, ['things'])).toBe(true);
    expect(await things().get('1')).toEqual({ id: '1', revision: 2, names: ['a', 'b', 'c'] });
    expect(await things().get('2')).toMatchObject({ names: ['x'] });
    expect(await things().get('3')).toMatchObject({ names: ['y'] });
    evolve.mockRestore();
  });

  it('fills a gap from the log: a document rebuilt away, or behind, is folded from the stream', async () => {
    await stores.events.append('thing-1', [named('a'), named('b')], { expectedRevision: 'no_stream' }); // not through the inline store
    const written = await events.append('thing-1', [named('c')], { expectedRevision: 1 });
    expect(written.documents?.get('things', '1')).toEqual({ id: '1', revision: 2, names: ['a', 'b', 'c'] });
    await things().clear(); // a rebuild in progress
    await events.append('thing-1', [named('d')], { expectedRevision: 2 });
    expect(await things().get('1')).toEqual({ id: '1', revision: 3, names: ['a', 'b', 'c', 'd'] });
  });

  it('with the stream the writer read (prior), fills the gap without reading the log; a partial one is not trusted', async () => {
    await stores.events.append('thing-1', [other, named('a')], { expectedRevision: 'no_stream' }); // not through the inline store
    const prior = await stores.events.readStream('thing-1');
    const reads = jest.spyOn(stores.events, 'readStream');
    const written = await events.append('thing-1', [named('b')], { expectedRevision: 1, prior });
    expect(written.documents?.get('things', '1')).toEqual({ id: '1', revision: 2, names: ['a', 'b'] });
    expect(reads).not.toHaveBeenCalled();
    // Part of the stream only (not from revision 0): read from the log as without it.
    await things().clear();
    await events.append('thing-1', [named('c')], { expectedRevision: 2, prior: prior.slice(1) });
    expect(reads).toHaveBeenCalled();
    expect(await things().get('1')).toEqual({ id: '1', revision: 3, names: ['a', 'b', 'c'] });
    reads.mockRestore();
  });

  it('a write through the write path hands the stream it loaded on: the log is read once, to decide', async () => {
    await stores.events.append('thing-1', [other, named('a')], { expectedRevision: 'no_stream' }); // not through the inline store
    await things().clear();
    const aggregate = {
      decider: {
        initialState: 0,
        decide: (name: string) => [{ type: 'thing.named', data: { name } }],
        evolve: (n: number) => n + 1,
      },
      parseEvent: (e: { type: string; data: unknown }) => ({ type: e.type, data: e.data }),
    };
    const reads = jest.spyOn(stores.events, 'readStream');
    await handleCommand(events, 'thing-1', aggregate, 'b', { workspaceId: 'ws_1' });
    await handleCommands(events, { workspaceId: 'ws_1' }, async (tx) => {
      tx.decide(await tx.load('thing-1', aggregate), 'c');
    });
    expect(reads).toHaveBeenCalledTimes(2); // each write's load, and nothing after its append
    expect(await things().get('1')).toEqual({ id: '1', revision: 3, names: ['a', 'b', 'c'] });
    reads.mockRestore();
  });

  it('answers a stream nothing was appended to as the log holds it', async () => {
    await stores.events.append('thing-1', [named('a')], { expectedRevision: 'no_stream' });
    expect(await inline.document(thingProjection, 'thing-1')).toEqual({ id: '1', revision: 0, names: ['a'] });
    expect(await inline.document(thingProjection, 'thing-missing')).toBeNull();
  });

  it('a write the log took but whose document has no room is durable: RecordedNotVisibleError, never a success', async () => {
    await events.append('thing-1', [named('a')], { expectedRevision: 'no_stream' });
    stores.reads.writer.exec('PRAGMA max_page_count = 1');
    const big = { type: 'thing.named', data: { name: 'x'.repeat(20_000) }, metadata: meta };
    const error = await events.append('thing-1', [big], { expectedRevision: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordedNotVisibleError);
    expect(error).toMatchObject({ kind: 'full' });
    expect(await stores.events.readStream('thing-1')).toHaveLength(2);
    stores.reads.writer.exec('PRAGMA max_page_count = 4294967294');
    expect(await inline.document(thingProjection, 'thing-1')).toMatchObject({ revision: 1 });
  });
});

inlineProjectionsContract('SQLite + SQLite', async () => {
  const stores = openTempStores('cc-inline-contract-');
  return { events: stores.events, reads: stores.reads, cleanup: () => closeTempStores(stores) };
});
