// The inventory read models: one document per live item with its unit counts, idempotent replays,
// deletes, the reservations view, and the declared indexes serving the listing filters, the
// matching engine's queries and the reservations query (SQLite plans).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Filter, type FindOptions, ProjectionRunner, type RecordedEvent } from '@app/platform';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteCollection, SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { type InventoryCreated, INVENTORY_RESERVATION_EVENT_TYPES, type InventoryUpdated } from './inventory.events';
import { InventoryReadModel, inventoryListFilter } from './inventory.queries';
import {
  INVENTORY_ITEMS,
  INVENTORY_RESERVATIONS,
  type InventoryItemDoc,
  inventoryProjection,
  type InventoryReservationDoc,
  inventoryReservationsProjection,
} from './inventory.projection';

const createdAt = '2026-03-01T10:00:00.000Z';
const updatedAt = '2026-03-02T10:00:00.000Z';
let position = 0;

function recorded(id: string, revision: number, type: string, data: unknown, workspaceId = 'ws_1'): RecordedEvent {
  position += 1;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type,
    data,
    metadata: { workspaceId, actor: 'test', schemaVersion: 1 },
    streamId: `inventory-${id}`,
    revision,
    position,
    createdAt,
  };
}

const match = {
  cardKey: 'charizard',
  setKey: 'base1',
  matchKey: 'base1|charizard',
  conditionClass: 'raw',
  conditionScore: 5,
  gradingCompany: null,
};

const item: InventoryCreated = {
  inventoryItemId: 'inv_1',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  priceMinor: 45000,
  currency: 'USD',
  quantity: 2,
  status: 'available',
  sku: 'CHZ-1',
  cardNumber: '4/102',
  notes: null,
  match,
  input: { cardName: 'charizard', setName: 'base set', condition: 'nm' },
  ingestion: { sessionId: 'ing_1', row: 4 },
  createdAt,
};

const { input: _input, ingestion: _ingestion, createdAt: _createdAt, ...state } = item;
const update = (changes: Partial<InventoryUpdated>): InventoryUpdated => ({
  ...state,
  changedFields: [],
  input: {},
  updatedAt,
  ...changes,
});

describe('inventory projection', () => {
  let dir: string;
  let store: SqliteReadStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inventory-projection-'));
    store = new SqliteReadStore(join(dir, 'read.db'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const read = (id = 'inv_1') => store.collection<InventoryItemDoc>(INVENTORY_ITEMS).get(id);

  it('writes one document per item with the match fields flattened and the workspace from metadata', async () => {
    await inventoryProjection.apply(recorded('inv_1', 0, 'inventory.created', item), store);
    expect(await read()).toStrictEqual({
      id: 'inv_1',
      revision: 0,
      workspaceId: 'ws_1',
      cardName: 'Charizard',
      setName: 'Base',
      condition: 'Near Mint',
      priceMinor: 45000,
      currency: 'USD',
      quantity: 2,
      availableQuantity: 2,
      reservedQuantity: 0,
      soldQuantity: 0,
      status: 'available',
      sku: 'CHZ-1',
      cardNumber: '4/102',
      notes: null,
      ...match,
      ingestion: { sessionId: 'ing_1', row: 4 },
      createdAt,
      updatedAt: createdAt,
    });
  });

  it('follows updates; applied twice = applied once', async () => {
    const created = recorded('inv_1', 0, 'inventory.created', item);
    const renamed = { ...match, cardKey: 'blastoise', matchKey: 'base1|blastoise' };
    const first = recorded('inv_1', 1, 'inventory.updated', update({ cardName: 'Blastoise', match: renamed, changedFields: ['cardName', 'match'] }));
    const second = recorded('inv_1', 2, 'inventory.updated', update({ cardName: 'Blastoise', match: renamed, status: 'sold', changedFields: ['status'] }));
    for (const event of [created, first, second]) await inventoryProjection.apply(event, store);
    const once = await read();
    // A replay after a crash between a batch and its checkpoint.
    for (const event of [created, first, second]) await inventoryProjection.apply(event, store);
    expect(await read()).toStrictEqual(once);
    expect(once).toMatchObject({
      revision: 2,
      cardName: 'Blastoise',
      cardKey: 'blastoise',
      matchKey: 'base1|blastoise',
      status: 'sold',
      availableQuantity: 0,
      createdAt,
      updatedAt,
      ingestion: { sessionId: 'ing_1', row: 4 },
    });
  });

  describe('reservations', () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 2, 3, 10, minute)).toISOString();
    const reservation = (reservationId: string, quantity: number, status: string, holderId = `hld_${reservationId}`) => ({
      inventoryItemId: 'inv_1',
      reservationId,
      holderId,
      quantity,
      status,
    });
    const reservations = () => store.collection<InventoryReservationDoc>(INVENTORY_RESERVATIONS);
    const apply = async (...events: RecordedEvent[]) => {
      for (const event of events) {
        await inventoryProjection.apply(event, store);
        if ((INVENTORY_RESERVATION_EVENT_TYPES as readonly string[]).includes(event.type)) await inventoryReservationsProjection.apply(event, store);
      }
    };

    it('counts units reserved and sold, with the status the events carry, and lists the reservations held', async () => {
      const history = [
        recorded('inv_1', 0, 'inventory.created', { ...item, quantity: 3 }),
        recorded('inv_1', 1, 'inventory.reserved', { ...reservation('rsv_1', 1, 'available'), reservedAt: at(1) }),
        recorded('inv_1', 2, 'inventory.reserved', { ...reservation('rsv_2', 2, 'reserved'), reservedAt: at(2) }),
      ];
      await apply(...history);
      expect(await read()).toMatchObject({ quantity: 3, availableQuantity: 0, reservedQuantity: 3, soldQuantity: 0, status: 'reserved', updatedAt: at(2) });
      expect((await reservations().find({})).items).toEqual([
        { id: 'inv_1/rsv_1', revision: 1, workspaceId: 'ws_1', inventoryItemId: 'inv_1', reservationId: 'rsv_1', holderId: 'hld_rsv_1', quantity: 1, reservedAt: at(1) },
        { id: 'inv_1/rsv_2', revision: 2, workspaceId: 'ws_1', inventoryItemId: 'inv_1', reservationId: 'rsv_2', holderId: 'hld_rsv_2', quantity: 2, reservedAt: at(2) },
      ]);

      const later = [
        recorded('inv_1', 3, 'inventory.reservation_transferred', {
          inventoryItemId: 'inv_1',
          reservationId: 'rsv_2',
          fromHolderId: 'hld_rsv_2',
          holderId: 'trd_1',
          quantity: 2,
          transferredAt: at(3),
        }),
        recorded('inv_1', 4, 'inventory.sold', { ...reservation('rsv_2', 2, 'reserved', 'trd_1'), soldAt: at(4) }),
        recorded('inv_1', 5, 'inventory.released', { ...reservation('rsv_1', 1, 'available'), reason: 'hold_expired', releasedAt: at(5) }),
      ];
      await apply(...later);
      // Applied twice = applied once.
      await apply(...history, ...later);
      expect(await read()).toMatchObject({ revision: 5, quantity: 3, availableQuantity: 1, reservedQuantity: 0, soldQuantity: 2, status: 'available' });
      expect(await reservations().count({})).toBe(0);
    });

    it('a transfer changes the holder in the reservations view, not the item', async () => {
      await apply(
        recorded('inv_1', 0, 'inventory.created', item),
        recorded('inv_1', 1, 'inventory.reserved', { ...reservation('rsv_1', 1, 'available'), reservedAt: at(1) }),
      );
      const before = await read();
      await apply(
        recorded('inv_1', 2, 'inventory.reservation_transferred', {
          inventoryItemId: 'inv_1',
          reservationId: 'rsv_1',
          fromHolderId: 'hld_rsv_1',
          holderId: 'trd_1',
          quantity: 1,
          transferredAt: at(3),
        }),
      );
      expect(await read()).toStrictEqual({ ...before, revision: 2 });
      expect(await reservations().get('inv_1/rsv_1')).toMatchObject({ holderId: 'trd_1', revision: 2, reservedAt: at(1) });
    });

    it('an update keeps the counts and recomputes what is available from its status and quantity', async () => {
      await apply(
        recorded('inv_1', 0, 'inventory.created', { ...item, quantity: 3 }),
        recorded('inv_1', 1, 'inventory.reserved', { ...reservation('rsv_1', 1, 'available'), reservedAt: at(1) }),
        recorded('inv_1', 2, 'inventory.updated', update({ quantity: 5, changedFields: ['quantity'] })),
      );
      expect(await read()).toMatchObject({ quantity: 5, availableQuantity: 4, reservedQuantity: 1, soldQuantity: 0 });
      await apply(recorded('inv_1', 3, 'inventory.updated', update({ quantity: 5, status: 'reserved', changedFields: ['status'] })));
      expect(await read()).toMatchObject({ availableQuantity: 0, reservedQuantity: 1 });
    });

    it('the process manager\'s query: held reservations before a cutoff, oldest first, by pages, through the by_reserved index', async () => {
      await apply(recorded('inv_1', 0, 'inventory.created', { ...item, quantity: 10 }));
      for (let i = 0; i < 5; i += 1) {
        await apply(recorded('inv_1', i + 1, 'inventory.reserved', { ...reservation(`rsv_${i}`, 1, 'available'), reservedAt: at(10 - i) }));
      }
      const events = new SqliteEventStore(join(dir, 'events.db'));
      const reader = new InventoryReadModel(store, new ProjectionRunner(events, store));
      await events.close();
      const first = await reader.reservationsOlderThan(new Date(at(9)), 2);
      // Made at minutes 10, 9, 8, 7, 6: before 9 are 8, 7, 6 (rsv_2, rsv_3, rsv_4), oldest first.
      expect(first.reservations.map((r) => r.reservationId)).toEqual(['rsv_4', 'rsv_3']);
      expect(first.reservations[0]).toEqual({ workspaceId: 'ws_1', inventoryItemId: 'inv_1', reservationId: 'rsv_4', holderId: 'hld_rsv_4', quantity: 1, reservedAt: at(6) });
      const second = await reader.reservationsOlderThan(new Date(at(9)), 2, first.nextCursor ?? undefined);
      expect(second.reservations.map((r) => r.reservationId)).toEqual(['rsv_2']);
      expect(second.nextCursor).toBeNull();

      const collection = reservations();
      if (!(collection instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
      const plan = collection.explain({ reservedAt: { $lt: at(9) } }, { sort: [['reservedAt', 1]], limit: 2 }).join('\n');
      expect(plan).toContain('USING INDEX c_inventory_reservations__by_reserved');
      expect(plan).not.toContain('TEMP B-TREE');
    });
  });

  it('removes the document on delete, and a replayed older event does not bring it back', async () => {
    const created = recorded('inv_1', 0, 'inventory.created', item);
    await inventoryProjection.apply(created, store);
    await inventoryProjection.apply(recorded('inv_1', 1, 'inventory.deleted', { inventoryItemId: 'inv_1', deletedAt: updatedAt }), store);
    expect(await read()).toBeNull();
    await inventoryProjection.apply(
      recorded('inv_1', 1, 'inventory.deleted', { inventoryItemId: 'inv_1', deletedAt: updatedAt }),
      store,
    );
    expect(await read()).toBeNull();
    expect(await store.collection<InventoryItemDoc>(INVENTORY_ITEMS).count({})).toBe(0);
  });

  describe('declared indexes serve the queries', () => {
    let plan: (filter: Filter, options?: FindOptions) => string;
    let program: (filter: Filter, options?: FindOptions) => string[];
    // The matching engine's instant full-match query (inventory.queries availableFor).
    const instantMatch: Filter = {
      workspaceId: 'ws_0',
      matchKey: 'base1|charizard',
      status: 'available',
      currency: 'USD',
      conditionClass: 'raw',
      priceMinor: { $lte: 45000 },
      conditionScore: { $gte: 5 },
    };

    beforeEach(async () => {
      for (let i = 0; i < 60; i += 1) {
        const id = `inv_${String(i).padStart(3, '0')}`;
        const card = ['charizard', 'blastoise', 'venusaur'][i % 3];
        const data: InventoryCreated = {
          ...item,
          inventoryItemId: id,
          priceMinor: 1000 * i,
          status: i % 4 === 0 ? 'sold' : 'available',
          match: { ...match, cardKey: card, matchKey: `base1|${card}` },
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        };
        await inventoryProjection.apply(recorded(id, 0, 'inventory.created', data, `ws_${i % 2}`), store);
      }
      const collection = store.collection<InventoryItemDoc>(INVENTORY_ITEMS);
      if (!(collection instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
      plan = (filter, options) => collection.explain(filter, options).join('\n');
      program = (filter, options) => collection.program(filter, options);
    });

    const newestFirst: FindOptions = { sort: [['createdAt', -1]] };
    const after: FindOptions = { ...newestFirst, after: Buffer.from(JSON.stringify([createdAt, 'inv_005'])).toString('base64url') };

    it.each([
      ['no filter', {}, 'by_ws_created'],
      ['status', { status: 'available' as const }, 'by_ws_status_created'],
      ['card name', { cardName: 'Charizard' }, 'by_ws_card_created'],
      ['set name', { setName: 'Base' }, 'by_ws_set_created'],
      ['set, status and currency', { setName: 'Base', status: 'available' as const, currency: 'USD' }, 'by_ws_set_created'],
      // Price and currency are weak filters: the workspace's items newest first, filtered.
      ['price range', { minPriceMinor: 1000, maxPriceMinor: 5000 }, 'by_ws_created'],
      ['currency', { currency: 'USD' }, 'by_ws_created'],
    ])('the listing by %s walks its index in order, on every page', (_label, filters, index) => {
      const filter = filterOf(filters);
      for (const options of [newestFirst, after]) {
        const query = plan(filter, options);
        expect(query).toContain(`SEARCH c_inventory_items USING INDEX c_inventory_items__${index}`);
        expect(query).not.toContain('TEMP B-TREE');
      }
    });

    it('the listing by card, set and price searches an index, never scans the table', () => {
      const query = plan(filterOf({ cardName: 'Charizard', setName: 'Base', maxPriceMinor: 2000 }), newestFirst);
      expect(query).toMatch(/SEARCH c_inventory_items USING INDEX c_inventory_items__by_ws_(card|set)_created/);
      expect(query).not.toMatch(/SCAN c_inventory_items/);
    });

    it('the matching engine\'s instant full matches use by_match, cheapest first without a sort step', () => {
      const filter = instantMatch;
      // Unsorted (as a count reads it) and cheapest first (as the engine pages it).
      expect(plan(filter)).toContain('USING INDEX c_inventory_items__by_match');
      const cheapestFirst = plan(filter, { sort: [['priceMinor', 1]] });
      expect(cheapestFirst).toContain('USING INDEX c_inventory_items__by_match');
      expect(cheapestFirst).not.toContain('TEMP B-TREE');
    });

    it('the instant match checks the condition score on the index entry: an item is read only once it passes', () => {
      const filter = instantMatch;
      // A `Function` opcode is a json_extract evaluated on a document read from the table: with the
      // score outside by_match, every item in the price range was read to check it (run scale-10).
      expect(program(filter, { sort: [['priceMinor', 1]], limit: 100 })).not.toContain('Function');
    });

    it('a request for any printing reads the card across sets through by_card_match, cheapest first, never a scan', () => {
      const anyPrinting = { workspaceId: 'ws_0', cardKey: 'charizard', status: 'available', currency: 'USD', conditionClass: 'raw', priceMinor: { $lte: 45000 }, conditionScore: { $gte: 5 } };
      const query = plan(anyPrinting, { sort: [['priceMinor', 1]] });
      expect(query).toContain('USING INDEX c_inventory_items__by_card_match');
      expect(query).not.toContain('TEMP B-TREE');
      // Any condition and any price too: still the card's index entries (sorted by price after).
      const open = plan({ workspaceId: 'ws_0', cardKey: 'charizard', status: 'available', currency: 'USD' }, { sort: [['priceMinor', 1]] });
      expect(open).toContain('USING INDEX c_inventory_items__by_card_match');
      expect(open).not.toMatch(/SCAN c_inventory_items/);
    });

    it('the matching engine\'s typo candidates use by_match (several names) and by_ws_set (one set)', () => {
      const byNames = plan(
        { workspaceId: 'ws_0', matchKey: { $in: ['base1|charizard', 'base1|charizrd'] }, status: 'available', currency: 'USD', priceMinor: { $lte: 50000 } },
        { sort: [['priceMinor', 1]] },
      );
      expect(byNames).toContain('USING INDEX c_inventory_items__by_match');
      expect(plan({ workspaceId: 'ws_0', setKey: 'base1', status: 'available', currency: 'USD' })).toContain(
        'USING INDEX c_inventory_items__by_ws_set ',
      );
    });
  });
});

/** The listing's real filter (names normalized by the catalog) for one workspace. */
function filterOf(filters: Parameters<typeof inventoryListFilter>[1]): Filter {
  return inventoryListFilter('ws_0', filters);
}
