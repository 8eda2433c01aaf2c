// The hot-stream write path: commands on one stream decided in arrival order, a batch per append;
// each keeps its own outcome; another writer's events (another process) are seen and conflicts
// decided again, so nothing is lost or doubled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { Decider } from './decider';
import { DomainError } from './domain-error';
import { withCausation } from './causation';
import { handleCommand } from './handle-command';
import { StreamDesk } from './stream-desk';

// A counter that refuses to go past a cap and records who took each step.
type TallyEvent = { type: 'tally.opened'; data: { cap: number } } | { type: 'tally.taken'; data: { by: string; n: number } };
type TallyCommand = { type: 'Open'; cap: number } | { type: 'Take'; by: string };
type TallyState = { cap: number; n: number } | null;
const tally: Decider<TallyCommand, TallyEvent, TallyState> = {
  initialState: null,
  decide(command, state) {
    if (command.type === 'Open') return [{ type: 'tally.opened', data: { cap: command.cap } }];
    if (!state) throw new DomainError('NOT_FOUND', 'no tally');
    if (state.n >= state.cap) throw new DomainError('CONFLICT', 'full', { n: state.n });
    return [{ type: 'tally.taken', data: { by: command.by, n: state.n + 1 } }];
  },
  evolve(state, event) {
    if (event.type === 'tally.opened') return { cap: event.data.cap, n: 0 };
    return state && { ...state, n: event.data.n };
  },
};
const aggregate = { decider: tally, parseEvent: (e: RecordedEvent) => ({ type: e.type, data: e.data }) as TallyEvent };
const meta = { workspaceId: 'ws_1', actor: 'test' };

describe('StreamDesk (group commit on a hot stream)', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-desk-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    await handleCommand(store, 'tally-1', aggregate, { type: 'Open', cap: 60 }, meta);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides 100 concurrent commands in arrival order, in few appends: the first 60 land, 40 are refused alone', async () => {
    const appends = jest.spyOn(store, 'append');
    const desk = new StreamDesk(store);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => desk.decide('tally-1', aggregate, { type: 'Take', by: `b${i}` }, meta)));
    const landed = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    expect(landed).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const o of outcomes.slice(60)) expect(o).toMatchObject({ status: 'rejected', reason: { code: 'CONFLICT', details: { n: 60 } } });
    const stored = await store.readStream('tally-1');
    expect(stored.slice(1).map((e) => (e.data as { by: string }).by)).toEqual(landed.map((i) => `b${i}`));
    expect(appends.mock.calls.length).toBeLessThanOrEqual(2);
    const first = outcomes[0];
    expect(first.status === 'fulfilled' && first.value.position).toBe(stored[stored.length - 1].position);
  });

  it('sees another process\'s writes and decides again after a conflict: two desks on one stream lose nothing, double nothing', async () => {
    const other = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const a = new StreamDesk(store);
      const b = new StreamDesk(other);
      await a.decide('tally-1', aggregate, { type: 'Take', by: 'warm' }, meta); // a keeps the state
      const outcomes = await Promise.allSettled(
        Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).decide('tally-1', aggregate, { type: 'Take', by: `p${i}` }, meta)),
      );
      const stored = (await store.readStream('tally-1')).slice(1);
      expect(stored).toHaveLength(60);
      expect(stored.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      const landed = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [`p${i}`] : []));
      expect(landed.sort()).toEqual(stored.slice(1).map((e) => (e.data as { by: string }).by).sort());
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: expect.stringMatching(/CONFLICT/) });
    } finally {
      await other.close();
    }
  });

  it('keeps each caller\'s cause to its own events: a caused command and a plain one in one batch', async () => {
    const desk = new StreamDesk(store);
    const [caused, plain] = await Promise.all([
      withCausation({ causationId: 'evt-cause', metadata: { automation: { automationId: 'au_1', runId: 'aur_1', depth: 1 } } }, () =>
        desk.decide('tally-1', aggregate, { type: 'Take', by: 'rule' }, meta),
      ),
      desk.decide('tally-1', aggregate, { type: 'Take', by: 'person' }, meta),
    ]);
    const [byRule, byPerson] = (await store.readStream('tally-1')).slice(1);
    expect(byRule.position).toBe(byPerson.position - 1); // one batch
    expect(byRule.metadata).toMatchObject({ causationId: 'evt-cause', automation: { automationId: 'au_1' } });
    expect(byPerson.metadata.causationId).toBeUndefined();
    expect(byPerson.metadata.automation).toBeUndefined();
    expect(caused.caused).toEqual([{ id: byRule.id, type: 'tally.taken' }]);
    expect(plain.events).toHaveLength(1);
  });

  it('another workspace\'s stream is absent to it: refused as missing, nothing appended', async () => {
    const desk = new StreamDesk(store);
    await expect(desk.decide('tally-1', aggregate, { type: 'Take', by: 'x' }, { workspaceId: 'ws_2', actor: 'test' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await store.readStream('tally-1')).toHaveLength(1);
  });
});
