import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { RecordedEvent } from '../event-store/event-store.port';
import { withCausation } from './causation';
import type { Decider } from './decider';
import { handleCommand } from './handle-command';

type Ev = { type: 'tick'; data: { n: number } };
const ticker: Decider<{ type: 'Tick' }, Ev, number> = {
  initialState: 0,
  decide: (_c, n) => [{ type: 'tick', data: { n: n + 1 } }],
  evolve: (_s, e) => e.data.n,
};
const aggregate = { decider: ticker, parseEvent: (e: RecordedEvent) => ({ type: e.type, data: e.data }) as Ev };
const meta = { workspaceId: 'ws_1', actor: 'test', correlationId: 'req_1' };

describe('withCausation', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-cause-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts the cause and its metadata on every event decided inside, and names the events appended', async () => {
    const { caused } = await withCausation({ causationId: 'evt-cause', correlationId: 'req_0', metadata: { automation: { automationId: 'au_1', depth: 1 } } }, async () => {
      await handleCommand(store, 'tick-a', aggregate, { type: 'Tick' }, meta);
      await handleCommand(store, 'tick-b', aggregate, { type: 'Tick' }, meta);
    });
    const stored = [...(await store.readStream('tick-a')), ...(await store.readStream('tick-b'))];
    expect(stored.map((e) => e.metadata)).toEqual(
      stored.map(() => ({ workspaceId: 'ws_1', actor: 'test', correlationId: 'req_0', causationId: 'evt-cause', automation: { automationId: 'au_1', depth: 1 }, schemaVersion: 1 })),
    );
    expect(caused).toEqual(stored.map((e) => ({ id: e.id, type: 'tick' })));
    // Outside a scope nothing is added.
    await handleCommand(store, 'tick-c', aggregate, { type: 'Tick' }, meta);
    expect((await store.readStream('tick-c'))[0].metadata).toEqual({ ...meta, schemaVersion: 1 });
  });

  it('forgets the events of an attempt a version conflict replaced', async () => {
    await handleCommand(store, 'tick-a', aggregate, { type: 'Tick' }, meta);
    const { caused } = await withCausation({ causationId: 'evt-cause' }, () =>
      // Decided on a stale state (revision -1): the first append conflicts, the retry is appended.
      handleCommand(store, 'tick-a', aggregate, { type: 'Tick' }, meta, { known: { state: 0, revision: -1 } }),
    );
    const stored = await store.readStream('tick-a');
    expect(stored).toHaveLength(2);
    expect(caused).toEqual([{ id: stored[1].id, type: 'tick' }]);
  });
});
