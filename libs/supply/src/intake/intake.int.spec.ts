// Intake handlers and read model against the real SQLite stores, in one process: add, push (with
// inventory appended in batches and read back through the inventory projection), a retried push
// that finds its items already there, a push racing an add, replays, and the time of a 10,000-row
// add + push. Matching is a recording stand-in here (TEST ONLY); the app gets MatchingModule's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Clock, InlineProjections, ProjectionRunner, type ReadStore, UlidIdGenerator } from '@app/platform';
import { fold } from '@app/platform/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { InlineEventStore } from '@app/platform/projections/inline-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { INVENTORY_ITEMS, type InventoryItemDoc, inventoryProjection } from '../inventory/inventory.projection';
import type { IntakeMatching } from './intake-matching.port';
import { intakeDecider } from './intake.decider';
import { ingestionStream, parseIngestionEvent, type RawRow } from './intake.events';
import {
  AddIngestionRowsHandler,
  AddIngestionRowsCommand,
  CreateIngestionSessionCommand,
  CreateIngestionSessionHandler,
  PushIngestionSessionCommand,
  PushIngestionSessionHandler,
} from './intake.handlers';
import { INGESTION_PUSHED_ITEMS, INGESTION_ROWS, ingestionRowsProjection } from './intake-rows.projection';
import { INGESTION_SESSIONS, type IngestionSessionDoc, ingestionSessionProjection } from './intake.projection';
import { ListIngestionRowsHandler, ListIngestionRowsQuery } from './intake.queries';
import { planPush } from './intake.push';

/** TEST ONLY: answers one match per call and records what it was asked. */
class RecordingMatching implements IntakeMatching {
  readonly calls: Array<{ workspaceId: string; ids: readonly string[]; position: number }> = [];
  async matchedBuyerRequests(workspaceId: string, inventoryItemIds: readonly string[], position: number): Promise<number> {
    this.calls.push({ workspaceId, ids: inventoryItemIds, position });
    return 1;
  }
}

const clock: Clock = { now: () => new Date() };
const row = (i: number, extra: RawRow = {}): RawRow => ({ card: 'Charizard', set: 'Base', condition: 'NM', price: `$${i}.50`, ...extra });

describe('intake sessions (int)', () => {
  let dir: string;
  /** What every writer appends through: the store, with the inline projections after each append. */
  let events: InlineEventStore;
  let reads: ReadStore;
  let runner: ProjectionRunner;
  let matching: RecordingMatching;
  let create: CreateIngestionSessionHandler;
  let add: AddIngestionRowsHandler;
  let push: PushIngestionSessionHandler;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-intake-'));
    const stored = new SqliteEventStore(join(dir, 'events.db'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
    const inline = new InlineProjections(stored, reads);
    events = new InlineEventStore(stored, inline);
    runner = new ProjectionRunner(stored, reads, { inline });
    runner.register(ingestionSessionProjection, ingestionRowsProjection, inventoryProjection);
    matching = new RecordingMatching();
    create = new CreateIngestionSessionHandler(events, clock, new UlidIdGenerator(), inline);
    add = new AddIngestionRowsHandler(events, clock);
    push = new PushIngestionSessionHandler(events, clock, matching);
  });

  afterEach(async () => {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const newSession = async (workspaceId = 'ws_1') =>
    (await create.execute(new CreateIngestionSessionCommand(workspaceId, 'key_1', { name: null, source: null, defaultCurrency: 'USD' }))).id;

  it('adds rows, pushes the pushable ones as inventory and shows it all in the read model', async () => {
    const id = await newSession();
    const first = await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, [row(1), row(2, { price: 'n/a' })]));
    const second = await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, [row(3, { set: 'Jungel' })]));
    expect(first.rows.map((r) => [r.row, r.status])).toEqual([
      [1, 'valid'],
      [2, 'error'],
    ]);
    expect(second.rows.map((r) => [r.row, r.status])).toEqual([[3, 'warning']]);

    const pushed = await push.execute(new PushIngestionSessionCommand('ws_1', 'key_1', id));
    expect(pushed.fresh).toBe(true);
    expect(pushed.result).toMatchObject({ pushed: 2, skipped: 1, skippedRows: [2], pushedRows: [1, 3], matchedBuyerRequests: 1 });
    expect(matching.calls).toEqual([{ workspaceId: 'ws_1', ids: pushed.result.inventoryItemIds, position: pushed.result.lastPosition }]);

    // The session and the items are the writes' own read models: current before any projection ran.
    const session = await reads.collection<IngestionSessionDoc>(INGESTION_SESSIONS).get(id);
    expect(session).toMatchObject({ status: 'pushed', counts: { total: 3, valid: 1, warning: 1, error: 1, pushed: 2 } });
    const items = await reads.collection<InventoryItemDoc>(INVENTORY_ITEMS).getMany(pushed.result.inventoryItemIds);
    expect(items.map((i) => [i.setName, i.ingestion?.row])).toEqual([
      ['Base', 1],
      ['Jungel', 3],
    ]);
    // The rows follow the log: the route waits for them (here, the runner catches up).
    await runner.catchUp();
    const listRows = new ListIngestionRowsHandler(reads, runner, { READ_YOUR_WRITES_TIMEOUT_MS: 5000 });
    const rows = await listRows.execute(new ListIngestionRowsQuery('ws_1', id, 100));
    expect(rows?.items.map((r) => [r.row, r.status, r.inventoryItemId])).toEqual([
      [1, 'valid', pushed.result.inventoryItemIds[0]],
      [2, 'error', null],
      [3, 'warning', pushed.result.inventoryItemIds[1]],
    ]);
    const errors = await listRows.execute(new ListIngestionRowsQuery('ws_1', id, 100, undefined, 'error'));
    expect(errors?.items.map((r) => r.row)).toEqual([2]);
    expect(await listRows.execute(new ListIngestionRowsQuery('ws_2', id, 100))).toBeNull();

    // Pushing again changes nothing and answers the same.
    const head = await events.headPosition();
    const again = await push.execute(new PushIngestionSessionCommand('ws_1', 'key_1', id));
    expect(again).toMatchObject({ fresh: false, result: pushed.result });
    expect(await events.headPosition()).toBe(head);
    await expect(add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, [row(4)]))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
  });

  it('hides a session from another workspace', async () => {
    const id = await newSession('ws_1');
    await expect(add.execute(new AddIngestionRowsCommand('ws_2', 'key_2', id, [row(1)]))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(push.execute(new PushIngestionSessionCommand('ws_2', 'key_2', id))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(push.execute(new PushIngestionSessionCommand('ws_1', 'key_1', 'ing_missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('completes a push that crashed after appending some items, without duplicating them', async () => {
    const id = await newSession();
    await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, Array.from({ length: 5 }, (_, i) => row(i))));
    // The crash: the first two items' streams were appended, the session never recorded the push.
    const recorded = await events.readStream(ingestionStream(id));
    const state = fold(intakeDecider, recorded.map(parseIngestionEvent));
    if (state.status !== 'open') throw new Error('expected an open session');
    const plan = planPush(state, new Date());
    await events.appendMany(
      plan.items.slice(0, 2).map((item) => ({
        streamId: `inventory-${item.inventoryItemId}`,
        events: item.events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } })),
        expectedRevision: 'no_stream' as const,
      })),
    );

    const pushed = await push.execute(new PushIngestionSessionCommand('ws_1', 'key_1', id));
    expect(pushed.result.pushed).toBe(5);
    expect(pushed.result.inventoryItemIds).toEqual(plan.items.map((i) => i.inventoryItemId));
    const created = await events.readAll({ filter: { types: ['inventory.created'] } });
    expect(created).toHaveLength(5);
  });

  it('pushes rows added while the push ran (the stale push is redone)', async () => {
    const id = await newSession();
    await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, [row(1)]));
    // An add lands between the push's inventory appends and its record of the push.
    let raced = false;
    const racing = new PushIngestionSessionHandler(events, clock, {
      matchedBuyerRequests: async () => {
        if (!raced) {
          raced = true;
          await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, [row(2)]));
        }
        return 0;
      },
    });
    const pushed = await racing.execute(new PushIngestionSessionCommand('ws_1', 'key_1', id));
    expect(pushed.result).toMatchObject({ pushed: 2, pushedRows: [1, 2] });
  });

  it('applies the read model idempotently (a replayed batch changes nothing)', async () => {
    const id = await newSession();
    await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, [row(1), row(2, { qty: 0 })]));
    await push.execute(new PushIngestionSessionCommand('ws_1', 'key_1', id));
    const all = await events.readAll({ filter: { streamPrefixes: ['ingestion-'] } });
    const apply = async () => {
      await reads.transaction(async () => {
        for (const e of all) {
          await ingestionSessionProjection.apply(e, reads);
          if (ingestionRowsProjection.eventTypes.includes(e.type)) await ingestionRowsProjection.apply(e, reads);
        }
      });
      return {
        session: await reads.collection(INGESTION_SESSIONS).get(id),
        rows: (await reads.collection(INGESTION_ROWS).find({ sessionId: id })).items,
        items: (await reads.collection(INGESTION_PUSHED_ITEMS).find({ sessionId: id })).items,
      };
    };
    const once = await apply();
    expect(await apply()).toEqual(once);
    expect(once.session).toMatchObject({ counts: { total: 2, valid: 1, error: 1, pushed: 1 } });
  });

  it('adds and pushes 10,000 rows', async () => {
    const id = await newSession();
    const rows = Array.from({ length: 10_000 }, (_, i) => row(i, { number: String(i + 1), sku: `SKU-${i}` }));
    const t0 = performance.now();
    await add.execute(new AddIngestionRowsCommand('ws_1', 'key_1', id, rows));
    const t1 = performance.now();
    const pushed = await push.execute(new PushIngestionSessionCommand('ws_1', 'key_1', id));
    const t2 = performance.now();
    await runner.catchUp();
    const t3 = performance.now();
    const sizes = (await events.readStream(ingestionStream(id))).map((e) => JSON.stringify(e.data).length);
    process.stdout.write(
      `intake 10k rows: add ${(t1 - t0).toFixed(0)} ms, push (appends) ${(t2 - t1).toFixed(0)} ms, ` +
        `projections ${(t3 - t2).toFixed(0)} ms; largest session event ${(Math.max(...sizes) / 1024).toFixed(0)} KB\n`,
    );
    expect(pushed.result.pushed).toBe(10_000);
    expect(await reads.collection(INVENTORY_ITEMS).count({ workspaceId: 'ws_1' })).toBe(10_000);
    // Printed, not asserted: tests do not bound speed (CI may share its cores); bench:scale B measures it.
  }, 60_000);
});
