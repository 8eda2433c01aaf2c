// The process-manager runner on the embedded stores: handles only its event types, in order,
// after the projections have applied them; resumes from its checkpoint; waitFor; a poison event
// is retried, then skipped without blocking the rest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { Doc } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { documentProjection, type StreamDoc } from '../projections/projection';
import { ProjectionRunner } from '../projections/projection-runner';
import { type ProcessManager, PROCESS_MANAGER_CHECKPOINTS, ProcessManagerRunner } from './process-manager-runner';

interface ThingDoc extends StreamDoc {
  name: string;
}
const THINGS = { name: 'things', indexes: [] } as const;
const things = documentProjection<ThingDoc>({
  name: 'things',
  version: 1,
  collection: THINGS,
  eventTypes: ['thing.created'],
  evolve: (_doc, event) => ({ id: '', revision: event.revision, name: (event.data as { name: string }).name }),
});

const meta = { workspaceId: 'ws_1', schemaVersion: 1 };
const created = (name: string) => ({ type: 'thing.created', data: { name }, metadata: meta });

describe('ProcessManagerRunner', () => {
  let dir: string;
  const toClose: Array<{ close(): Promise<void> }> = [];
  const runners: Array<{ stop(): Promise<void> }> = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-runner-'));
  });

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    for (const c of toClose.splice(0)) await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A process manager recording what it saw, and whether the read model already held it. */
  function recorder(reads: SqliteReadStore, failOn?: string) {
    const seen: Array<{ name: string; projected: boolean }> = [];
    let failures = 0;
    const pm: ProcessManager = {
      name: 'recorder',
      eventTypes: ['thing.created'],
      async handle(events: readonly RecordedEvent[]) {
        if (failOn && events.some((e) => (e.data as { name: string }).name === failOn)) {
          failures += 1;
          throw new Error(`cannot handle ${failOn}`);
        }
        for (const e of events) {
          const doc = await reads.collection<ThingDoc & Doc>(THINGS).get(e.streamId.replace('thing-', ''));
          seen.push({ name: (e.data as { name: string }).name, projected: doc !== null });
        }
      },
    };
    return { pm, seen, failures: () => failures };
  }

  /** `checkpointsIn`: a file of their own for the checkpoints (eventual.db), read.db the former place. */
  async function start(failOn?: string, checkpointsIn?: string) {
    const events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    const reads = new SqliteReadStore(join(dir, 'read.db'));
    toClose.push(events, reads);
    const projections = new ProjectionRunner(events, reads, { pollMs: 10 });
    projections.register(things);
    const own = checkpointsIn ? new SqliteReadStore(join(dir, checkpointsIn)) : null;
    if (own) toClose.push(own);
    const pms = new ProcessManagerRunner(events, own ?? reads, projections, { pollMs: 10, formerCheckpoints: own ? reads : undefined });
    const rec = recorder(reads, failOn);
    pms.register(rec.pm);
    await projections.start();
    await pms.start();
    runners.push(pms, projections);
    return { events, pms, projections, ...rec };
  }

  it('handles its event types in order, after the projections applied them', async () => {
    const { events, pms, seen } = await start();
    await events.append('thing-a', [created('a')], { expectedRevision: 'no_stream' });
    await events.append('other-x', [{ type: 'other.happened', data: {}, metadata: meta }], { expectedRevision: 'no_stream' });
    const last = await events.append('thing-b', [created('b')], { expectedRevision: 'no_stream' });
    expect(await pms.waitFor('recorder', last.position, 5000)).toBe(true);
    expect(seen).toEqual([
      { name: 'a', projected: true },
      { name: 'b', projected: true },
    ]);
  });

  it('resumes after its checkpoint when restarted: nothing handled twice, nothing skipped', async () => {
    const first = await start();
    const a = await first.events.append('thing-a', [created('a')], { expectedRevision: 'no_stream' });
    expect(await first.pms.waitFor('recorder', a.position, 5000)).toBe(true);
    for (const r of runners.splice(0)) await r.stop();

    const second = await start();
    const b = await second.events.append('thing-b', [created('b')], { expectedRevision: 'no_stream' });
    expect(await second.pms.waitFor('recorder', b.position, 5000)).toBe(true);
    expect(first.seen.map((s) => s.name)).toEqual(['a']);
    expect(second.seen.map((s) => s.name)).toEqual(['b']);
  });

  it('checkpoints moved to a store of their own: goes on from the one kept in the former store, then keeps its own', async () => {
    const first = await start();
    const a = await first.events.append('thing-a', [created('a')], { expectedRevision: 'no_stream' });
    expect(await first.pms.waitFor('recorder', a.position, 5000)).toBe(true);
    for (const r of runners.splice(0)) await r.stop();

    const second = await start(undefined, 'eventual.db');
    const b = await second.events.append('thing-b', [created('b')], { expectedRevision: 'no_stream' });
    expect(await second.pms.waitFor('recorder', b.position, 5000)).toBe(true);
    expect(second.seen.map((s) => s.name)).toEqual(['b']); // not 'a' again
    const own = new SqliteReadStore(join(dir, 'eventual.db'));
    toClose.push(own);
    expect(await own.collection<Doc & { position: number }>(PROCESS_MANAGER_CHECKPOINTS).get('recorder')).toMatchObject({ position: b.position });
  });

  it('retries a failing batch, then handles event by event and skips the poison one', async () => {
    const { events, pms, seen, failures } = await start('poison');
    const last = await events.appendMany([
      { streamId: 'thing-a', events: [created('a')], expectedRevision: 'no_stream' },
      { streamId: 'thing-p', events: [created('poison')], expectedRevision: 'no_stream' },
      { streamId: 'thing-b', events: [created('b')], expectedRevision: 'no_stream' },
    ]);
    expect(await pms.waitFor('recorder', last[2].position, 10_000)).toBe(true);
    expect(seen.map((s) => s.name)).toEqual(['a', 'b']);
    expect(failures()).toBeGreaterThanOrEqual(3);
  });

  it('waitFor answers false when the position is not reached in time', async () => {
    const { pms } = await start();
    expect(await pms.waitFor('recorder', 10_000, 50)).toBe(false);
  });
});
