// Reverse matching on the embedded stores, without HTTP: stock meets the open requests, and a
// request whose instant check ran before some stock was projected still gets matched with it;
// units a release makes available again meet the requests that arrived while they were reserved.
// Cross-context on purpose: it writes demand's and supply's events with their own deciders and
// reads their read models, around matching's process manager.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { normalizeListing } from '@app/catalog';
import {
  type EventStore,
  type NewEvent,
  ProcessManagerRunner,
  ProjectionRunner,
  SystemClock,
  UlidIdGenerator,
} from '@app/platform';
import { handleCommands } from '@app/platform/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { buyerRequestDecider } from '../../libs/demand/src/buyer-request/buyer-request.decider';
import { buyerRequestStream } from '../../libs/demand/src/buyer-request/buyer-request.events';
import { toCriteria } from '../../libs/demand/src/buyer-request/buyer-request.handlers';
import { matchProjection } from '../../libs/demand/src/buyer-request/buyer-request-matches.projection';
import { BUYER_REQUESTS, type BuyerRequestDoc, buyerRequestProjection } from '../../libs/demand/src/buyer-request/buyer-request.projection';
import { BuyerRequestReadModel } from '../../libs/demand/src/buyer-request/buyer-request.queries';
import { MatchCandidates } from '../../libs/matching/src/engine/match-candidates';
import { REVERSE_MATCHING, ReverseMatching } from '../../libs/matching/src/reverse/reverse-matching';
import { inventoryDecider } from '../../libs/supply/src/inventory/inventory.decider';
import { inventoryStream } from '../../libs/supply/src/inventory/inventory.events';
import { inventoryProjection } from '../../libs/supply/src/inventory/inventory.projection';
import { InventoryReadModel } from '../../libs/supply/src/inventory/inventory.queries';
import { loadReservableItem } from '../../libs/supply/src/inventory/inventory.reservation';

const WS = 'ws_reverse';
const meta = { workspaceId: WS, actor: 'test', schemaVersion: 1 };
const now = new Date('2026-11-22T12:00:00.000Z');

/** The `inventory.created` event of a new available item, as the inventory decider makes it. */
function itemCreated(id: string, cardName: string, condition: string, priceMinor: number, quantity = 1): NewEvent {
  const listing = normalizeListing({ cardName, setName: 'Base', condition });
  const [event] = inventoryDecider.decide(
    {
      type: 'CreateInventoryItem',
      item: {
        inventoryItemId: id,
        cardName: listing.cardName.value.name,
        setName: listing.setName.value.name,
        condition: listing.condition.value.label,
        priceMinor,
        currency: 'USD',
        quantity,
        status: 'available',
        sku: null,
        cardNumber: null,
        notes: null,
        match: listing.match,
        input: { cardName, setName: 'Base', condition },
        ingestion: null,
      },
      now,
    },
    inventoryDecider.initialState,
  );
  return { ...event, metadata: meta } as NewEvent;
}

async function addItem(events: EventStore, id: string, cardName: string, condition: string, priceMinor: number, quantity = 1): Promise<number> {
  return (await events.append(inventoryStream(id), [itemCreated(id, cardName, condition, priceMinor, quantity)], { expectedRevision: 'no_stream' })).position;
}

/** A request written as if its instant check had seen inventory only up to `matchedThrough`. */
async function addRequest(events: EventStore, id: string, maxPriceMinor: number, matchedThrough: number): Promise<number> {
  const input = { cardName: 'Charizard', setName: 'Base', condition: 'NM' };
  const criteria = toCriteria({ ...input, maxPriceMinor, currency: 'USD', source: null });
  const created = buyerRequestDecider.decide(
    { type: 'CreateBuyerRequest', buyerRequestId: id, criteria, input, matches: [], matchedThrough, now },
    buyerRequestDecider.initialState,
  );
  const written = created.map((e): NewEvent => ({ type: e.type, data: e.data, metadata: meta }));
  return (await events.append(buyerRequestStream(id), written, { expectedRevision: 'no_stream' })).position;
}

describe('reverse matching', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let projections: ProjectionRunner;
  let pms: ProcessManagerRunner;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reverse-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { pollIntervalMs: 10 });
    reads = new SqliteReadStore(join(dir, 'read.db'));
    projections = new ProjectionRunner(events, reads, { pollMs: 10 });
    projections.register(inventoryProjection, buyerRequestProjection, matchProjection);
    pms = new ProcessManagerRunner(events, reads, projections, { pollMs: 10 });
    const items = new InventoryReadModel(reads, projections);
    const requests = new BuyerRequestReadModel(reads);
    const candidates = new MatchCandidates(items, requests);
    pms.register(new ReverseMatching(events, new SystemClock(), new UlidIdGenerator(), candidates, items, requests));
    await projections.start();
    await pms.start();
  });

  afterEach(async () => {
    await pms.stop();
    await projections.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const request = async (id: string): Promise<BuyerRequestDoc | null> => reads.collection<BuyerRequestDoc>(BUYER_REQUESTS).get(id);
  const settle = async (position: number): Promise<void> => {
    expect(await pms.waitFor(REVERSE_MATCHING, position, 5000)).toBe(true);
    expect(await projections.waitFor(await events.headPosition(), 5000)).toBe(true);
  };

  it('matches new stock against the open requests it fully meets', async () => {
    await addRequest(events, 'br_cheap', 10_000, 0);
    await addRequest(events, 'br_rich', 50_000, 0);
    const last = await addItem(events, 'inv_1', 'charizard', 'Mint', 40_000);
    await settle(last);
    expect(await request('br_rich')).toMatchObject({ status: 'matched', matchCount: 1, matchedItemIds: ['inv_1'] });
    expect(await request('br_cheap')).toMatchObject({ status: 'open', matchCount: 0 });
  });

  it('a request whose instant check ran before the stock was projected is still matched with it', async () => {
    const item = await addItem(events, 'inv_1', 'Charizard', 'NM', 40_000);
    await settle(item); // the item's own turn found no request: this one is not written yet
    // Its instant check saw the log only up to before the item.
    const last = await addRequest(events, 'br_late', 50_000, item - 1);
    await settle(last);
    expect(await request('br_late')).toMatchObject({ matchCount: 1, matchedItemIds: ['inv_1'] });
  });

  it('stock the instant check had already seen is not judged again (the window starts after it)', async () => {
    const item = await addItem(events, 'inv_1', 'Charizard', 'NM', 40_000);
    await settle(item);
    // Seen at creation (and, in this contrived case, not recorded): nothing after it to check.
    const last = await addRequest(events, 'br_seen', 50_000, item);
    await settle(last);
    expect(await request('br_seen')).toMatchObject({ matchCount: 0 });
  });

  it('an item whose units are all reserved meets no request; released, it does', async () => {
    const item = await addItem(events, 'inv_1', 'Charizard', 'NM', 40_000);
    await settle(item);
    const reserve = await handleCommands(events, meta, async (tx) => {
      (await loadReservableItem(tx, WS, 'inv_1'))?.reserve(tx, 'rsv_1', 1, 'hld_1', now);
    });
    // Not an event reverse matching follows: the item's read model shows it reserved.
    expect(await projections.waitFor(reserve.position ?? 0, 5000)).toBe(true);
    // Its instant check ran after the reservation: nothing available.
    const last = await addRequest(events, 'br_waiting', 50_000, reserve.position ?? 0);
    await settle(last);
    expect(await request('br_waiting')).toMatchObject({ matchCount: 0 });

    const release = await handleCommands(events, meta, async (tx) => {
      (await loadReservableItem(tx, WS, 'inv_1'))?.release(tx, 'rsv_1', 'hold_expired', now);
    });
    await settle(release.position ?? 0);
    expect(await request('br_waiting')).toMatchObject({ matchCount: 1, matchedItemIds: ['inv_1'] });
  });

  it('a push of thousands of items is judged in one batch: a request met by many of them gets one event recording them all', async () => {
    const before = await addRequest(events, 'br_many', 50_000, 0);
    await addRequest(events, 'br_none', 100, 0);
    await settle(before + 1);
    // More items than the runner's default batch (2,000), in one append, as a push's batches land
    // before reverse matching reads them; every 500th meets br_many, the rest are another card.
    const count = 2_500;
    const writes = Array.from({ length: count }, (_, i) => {
      const id = `inv_${String(i).padStart(5, '0')}`;
      const meets = i % 500 === 0;
      return { streamId: inventoryStream(id), events: [itemCreated(id, meets ? 'Charizard' : 'Blastoise', 'NM', 40_000)], expectedRevision: 'no_stream' as const };
    });
    const appended = await events.appendMany(writes);
    await settle(appended[appended.length - 1].position);
    // One event for the whole batch, carrying every match.
    const recorded = (await events.readStream(buyerRequestStream('br_many'))).filter((e) => e.type !== 'buyer_request.created');
    expect(recorded.map((e) => e.type)).toEqual(['buyer_request.matches_recorded']);
    expect((recorded[0].data as { full: unknown[]; created: unknown[] }).full).toHaveLength(count / 500);
    expect((recorded[0].data as { full: unknown[]; created: unknown[] }).created).toHaveLength(count / 500);
    expect(await request('br_many')).toMatchObject({ matchCount: count / 500, matchedItemIds: ['inv_00000', 'inv_00500', 'inv_01000', 'inv_01500', 'inv_02000'] });
    expect(await request('br_none')).toMatchObject({ matchCount: 0 });
  });

  it('an item of 2 units with 1 reserved stays available: it still meets requests', async () => {
    const listing = await addItem(events, 'inv_2', 'Charizard', 'NM', 40_000, 2);
    await settle(listing);
    const reserve = await handleCommands(events, meta, async (tx) => {
      (await loadReservableItem(tx, WS, 'inv_2'))?.reserve(tx, 'rsv_1', 1, 'hld_1', now);
    });
    expect(await projections.waitFor(reserve.position ?? 0, 5000)).toBe(true);
    const last = await addRequest(events, 'br_new', 50_000, 0); // checks the whole inventory
    await settle(last);
    expect(await request('br_new')).toMatchObject({ matchCount: 1, matchedItemIds: ['inv_2'] });
  });
});
