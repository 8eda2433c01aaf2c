// The fan-out against the real SQLite event and read stores: what it skips without a write (nobody
// listens), and that it never skips an event a webhook created meanwhile should get — also when
// another consumer of the group scanned the webhook's creation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StatementSync } from 'node:sqlite';

import { AppendBatcher, type ProjectionRunner, type RecordedEvent } from '@app/platform';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { fannedOutEventId, PublicEventCatalogue } from '@app/platform/public-events/public-event-catalogue';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { WEBHOOKS, type WebhookDoc } from '../subscriptions/webhook.projection';
import type { WebhookSettings } from '../webhook-settings';
import type { DeliveryWorker } from './delivery-worker';
import { DISPATCHER_GROUP, WebhookDispatcher } from './dispatcher';

const TYPE = 'thing.happened';
/** A stored event standing for one TYPE per n (the catalogue's fan-out). */
const BATCH = 'things.batch';
const catalogue = new PublicEventCatalogue([
  {
    type: TYPE,
    description: 'test',
    data: {},
    toData: (e: RecordedEvent) => ({ n: (e.data as { n: number }).n }),
    fanOut: { [BATCH]: (e: RecordedEvent) => (e.data as { ns: number[] }).ns.map((n) => ({ n })) },
  },
]);
const settings = { schedule: [60_000], maxPerWorkspace: 100 } as unknown as WebhookSettings;

describe('WebhookDispatcher (SQLite)', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let dispatcher: WebhookDispatcher;
  let applied: number;
  let submitted: string[];
  let stream = 0;

  const thing = (workspaceId: string, n: number) =>
    events.append(`thing-${(stream += 1)}`, [{ type: TYPE, data: { n }, metadata: { workspaceId, correlationId: 'c', actor: 'test', schemaVersion: 1 } }], {
      expectedRevision: 'no_stream',
    });
  /** A webhook of `workspaceId` for TYPE: its event in the log and (as the projection would) its document. */
  const createWebhook = async (workspaceId: string, id: string): Promise<number> => {
    const { position } = await events.append(
      `webhook-${id}`,
      [{ type: 'webhook.created', data: { webhookId: id, workspaceId }, metadata: { workspaceId, correlationId: 'c', actor: 'test', schemaVersion: 1 } }],
      { expectedRevision: 'no_stream' },
    );
    await reads.collection<WebhookDoc>(WEBHOOKS).put({ id, workspaceId, status: 'enabled', events: [TYPE], createdPosition: position } as unknown as WebhookDoc);
    applied = position;
    return position;
  };
  const group = () =>
    events.db.prepare('SELECT checkpoint, read_position FROM persistent_subscription_groups WHERE group_name = ?').get(DISPATCHER_GROUP) as
      | { checkpoint: number; read_position: number }
      | undefined;
  // The time-out only catches a hang (a busy machine may be slow).
  const until = async (what: string, check: () => boolean, ms = 20_000): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dispatcher-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 20 });
    reads = new SqliteReadStore(join(dir, 'read.db'));
    reads.collection(WEBHOOKS);
    applied = 0;
    submitted = [];
    const projections = { waitFor: async () => true, appliedPosition: async () => applied } as unknown as ProjectionRunner;
    const worker = { submit: (job: { webhookId: string }) => submitted.push(job.webhookId) } as unknown as DeliveryWorker;
    dispatcher = new WebhookDispatcher(events, new AppendBatcher(events), reads, { now: () => new Date() }, settings, catalogue, projections, worker);
  });

  afterEach(async () => {
    await dispatcher.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('skips the events of workspaces without webhooks: no claim, no row, no write transaction for them', async () => {
    dispatcher.start();
    await until('the group', () => group() !== undefined);
    const transactions = jest.spyOn(StatementSync.prototype, 'run');
    try {
      // 50 events of 5 workspaces, in one append: its own write transaction, whatever the clock.
      await events.appendMany(
        Array.from({ length: 50 }, (_, n) => ({
          streamId: `thing-${(stream += 1)}`,
          events: [{ type: TYPE, data: { n }, metadata: { workspaceId: `ws_${n % 5}`, correlationId: 'c', actor: 'test', schemaVersion: 1 } }],
          expectedRevision: 'no_stream' as const,
        })),
      );
      await until('the read position written', () => group()?.checkpoint === 50);
      const begun = transactions.mock.contexts.filter((s) => s.sourceSQL === 'BEGIN IMMEDIATE').length;
      // The append's own, and the skipping scans' cursor written once (or twice, had a flush come
      // between two scans): counted, not timed — a write per event would be 50 more.
      expect(begun).toBeGreaterThanOrEqual(2);
      expect(begun).toBeLessThanOrEqual(3);
    } finally {
      transactions.mockRestore();
    }
    expect(submitted).toEqual([]);
    expect(events.db.prepare('SELECT count(*) AS n FROM persistent_subscription_claims').get()).toEqual({ n: 0 });
    expect(events.db.prepare('SELECT count(*) AS n FROM persistent_subscription_events').get()).toEqual({ n: 0 });
  });

  it('a webhook created after its snapshot: the events of its workspace after it are scheduled, the others still skipped', async () => {
    await thing('ws_a', 0);
    dispatcher.start();
    await until('the first event settled', () => group()?.checkpoint === 1);
    await createWebhook('ws_a', 'wh_1');
    await thing('ws_b', 1);
    await thing('ws_a', 2);
    await until('one delivery', () => submitted.length === 1);
    expect(submitted).toEqual(['wh_1']);
    await until('all settled', () => group()?.checkpoint === 5);
    expect(submitted).toHaveLength(1);
  });

  it('a stored event standing for several public events: one delivery each (ids derived from it), none twice when it comes again', async () => {
    await createWebhook('ws_a', 'wh_f');
    dispatcher.start();
    await events.append('batch-1', [{ type: BATCH, data: { ns: [1, 2, 3] }, metadata: { workspaceId: 'ws_a', correlationId: 'c', actor: 'test', schemaVersion: 1 } }], {
      expectedRevision: 'no_stream',
    });
    // Nobody listens in ws_b: skipped like any public event.
    await events.append('batch-2', [{ type: BATCH, data: { ns: [1] }, metadata: { workspaceId: 'ws_b', correlationId: 'c', actor: 'test', schemaVersion: 1 } }], {
      expectedRevision: 'no_stream',
    });
    await until('three deliveries', () => submitted.length === 3);
    const [stored] = await events.readStream('batch-1');
    const scheduledData = async () =>
      (await events.readAll({ fromPosition: 0, limit: 100, filter: { types: ['webhook.delivery_scheduled'] } })).map(
        (e) => e.data as { deliveryId: string; eventId: string; eventType: string; eventPosition: number },
      );
    const scheduled = await scheduledData();
    expect(scheduled.map((d) => d.eventId).sort()).toEqual([0, 1, 2].map((i) => fannedOutEventId(stored.id, i)).sort());
    expect(new Set(scheduled.map((d) => d.deliveryId)).size).toBe(3);
    expect(scheduled.every((d) => d.eventType === TYPE && d.eventPosition === stored.position)).toBe(true);
    // Handed out again (a redelivery after a crash): the same deliveries, nothing scheduled twice.
    await dispatcher.fanOut(stored);
    expect(await scheduledData()).toEqual(scheduled);
    expect(submitted.every((w) => w === 'wh_f')).toBe(true);
  });

  it('webhooks there at start: a workspace whose webhook lists the type gets its events, one listening to other types none', async () => {
    await createWebhook('ws_a', 'wh_a');
    const other = await events.append(
      'webhook-wh_c',
      [{ type: 'webhook.created', data: { webhookId: 'wh_c', workspaceId: 'ws_c' }, metadata: { workspaceId: 'ws_c', correlationId: 'c', actor: 'test', schemaVersion: 1 } }],
      { expectedRevision: 'no_stream' },
    );
    await reads.collection<WebhookDoc>(WEBHOOKS).put({ id: 'wh_c', workspaceId: 'ws_c', status: 'enabled', events: ['other.type'], createdPosition: other.position } as unknown as WebhookDoc);
    applied = other.position;
    dispatcher.start();
    await thing('ws_c', 0);
    await thing('ws_a', 1);
    await thing('ws_c', 2);
    await until('one delivery', () => submitted.length === 1);
    await until('all settled', () => group()?.checkpoint === 6);
    expect(submitted).toEqual(['wh_a']);
    // Only ws_a's event was claimed (and its range is gone once acked).
    expect(events.db.prepare('SELECT count(*) AS n FROM persistent_subscription_claims').get()).toEqual({ n: 0 });
  });

  it('a webhook created where another consumer of the group scanned: not skipped on what the dispatcher saw before', async () => {
    dispatcher.start();
    await thing('ws_a', 0);
    await until('the first event settled', () => group()?.checkpoint === 1);
    // Another process's consumer took the webhook's creation (and the read model is behind: the
    // snapshot taken again sees no webhook yet).
    const created = await createWebhook('ws_a', 'wh_2');
    applied = 0;
    events.db.prepare('UPDATE persistent_subscription_groups SET read_position = ? WHERE group_name = ?').run(created, DISPATCHER_GROUP);
    await thing('ws_a', 1);
    await until('one delivery', () => submitted.length === 1);
    expect(submitted).toEqual(['wh_2']);
  });
});
