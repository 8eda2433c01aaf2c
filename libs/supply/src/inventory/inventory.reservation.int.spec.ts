// Reservations through the real write path on SQLite, as trading sends them: the item's units and
// the holder (here a stand-in hold stream) decided in one handleCommands transaction. Fifty
// transactions racing for the last unit: exactly one reserves it, the others are refused with
// INSUFFICIENT_QUANTITY (the conflict retry reloads the item and the decider refuses), and the
// counts add up in the log, in the decider's state and in the read models. Then the rest of the
// contract (release, sell, transfer, isolation) and the healing of a reservation left without its
// holder (what EventStoreDB's one-stream-at-a-time appends can leave after a crash).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ProjectionRunner } from '@app/platform';
import { type Decider, DomainError, handleCommand, handleCommands, type RecordedEvent, type Transaction } from '@app/platform/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import type { HeldReservationView } from './inventory-reader.port';
import { inventoryAggregate } from './inventory.aggregate';
import { type InventoryCreated, inventoryStream } from './inventory.events';
import { InventoryReadModel } from './inventory.queries';
import { INVENTORY_ITEMS, type InventoryItemDoc, inventoryProjection, inventoryReservationsProjection } from './inventory.projection';
import { loadReservableItem, type ReservableItem } from './inventory.reservation';

// A stand-in for trading's hold: a stream that exists once opened.
type HoldEvent = { type: 'hold.opened'; data: { holdId: string; inventoryItemId: string } };
type HoldCommand = { type: 'OpenHold'; holdId: string; inventoryItemId: string };
const holdDecider: Decider<HoldCommand, HoldEvent, { open: boolean }> = {
  initialState: { open: false },
  decide(command, state) {
    if (state.open) throw new DomainError('CONFLICT', `Hold ${command.holdId} already exists`);
    return [{ type: 'hold.opened', data: { holdId: command.holdId, inventoryItemId: command.inventoryItemId } }];
  },
  evolve: () => ({ open: true }),
};
const holdAggregate = { decider: holdDecider, parseEvent: (e: RecordedEvent) => ({ type: e.type, data: e.data }) as HoldEvent };
const holdStream = (id: string) => `hold-${id}`;

const WS = 'ws_1';
const meta = { workspaceId: WS, actor: 'test' };
const now = new Date('2026-03-03T10:00:00.000Z');

const item = (inventoryItemId: string, quantity: number): Omit<InventoryCreated, 'createdAt'> => ({
  inventoryItemId,
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  priceMinor: 45000,
  currency: 'USD',
  quantity,
  status: 'available',
  sku: null,
  cardNumber: null,
  notes: null,
  match: { cardKey: 'charizard', setKey: 'base1', matchKey: 'base1|charizard', conditionClass: 'raw', conditionScore: 5, gradingCompany: null },
  input: { cardName: 'charizard', setName: 'base', condition: 'nm' },
  ingestion: null,
});

describe('inventory reservations on the write path (SQLite)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let reads: SqliteReadStore;
  let projections: ProjectionRunner;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-reserve-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
    projections = new ProjectionRunner(store, reads);
    projections.register(inventoryProjection, inventoryReservationsProjection);
  });

  afterEach(async () => {
    await store.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createItem = (id: string, quantity: number, workspaceId = WS) =>
    handleCommand(store, inventoryStream(id), inventoryAggregate, { type: 'CreateInventoryItem', item: item(id, quantity), now }, { ...meta, workspaceId });

  /** What trading does: the item first (the scarce resource), then the hold that holds its units. */
  const holdUnits = (log: SqliteEventStore, inventoryItemId: string, holdId: string, quantity = 1, maxAttempts?: number) =>
    handleCommands(
      log,
      meta,
      async (tx) => {
        const reservable = await loadReservableItem(tx, WS, inventoryItemId);
        if (!reservable) throw new DomainError('NOT_FOUND', `No inventory item with id ${inventoryItemId}`);
        reservable.reserve(tx, `rsv_${holdId}`, quantity, holdId, now);
        tx.decide(tx.create(holdStream(holdId), holdAggregate), { type: 'OpenHold', holdId, inventoryItemId });
        return reservable.available;
      },
      { maxAttempts },
    );

  /** The item as a fresh transaction sees it (and nothing decided). */
  const current = async (id: string, workspaceId = WS): Promise<ReservableItem | null> =>
    (await handleCommands(store, meta, (tx) => loadReservableItem(tx, workspaceId, id))).value;

  const itemDoc = async (id: string) => {
    await projections.catchUp();
    return reads.collection<InventoryItemDoc>(INVENTORY_ITEMS).get(id);
  };

  it('50 concurrent transactions for the last unit: exactly one reserves it, the others get INSUFFICIENT_QUANTITY', async () => {
    await createItem('inv_1', 3);
    expect((await holdUnits(store, 'inv_1', 'hld_a')).value).toBe(2);
    expect((await holdUnits(store, 'inv_1', 'hld_b')).value).toBe(1);

    const other = new SqliteEventStore(join(dir, 'events.db')); // a second connection, as another process
    let outcomes: Array<PromiseSettledResult<unknown>>;
    try {
      outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => holdUnits(i % 2 ? store : other, 'inv_1', `hld_${i}`)));
    } finally {
      await other.close();
    }
    const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [`hld_${i}`] : []));
    expect(won).toHaveLength(1);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as DomainError] : []));
    expect(refusals).toHaveLength(49);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ code: 'INSUFFICIENT_QUANTITY', details: { inventoryItemId: 'inv_1', requested: 1, available: 0 } });
    }

    // The log: three reservations, each with its hold, and no hold without its reservation.
    const reservedEvents = (await store.readStream(inventoryStream('inv_1'))).filter((e) => e.type === 'inventory.reserved');
    const holders = reservedEvents.map((e) => (e.data as { holderId: string }).holderId);
    expect(holders).toEqual(['hld_a', 'hld_b', won[0]]);
    const holds = await store.readAll({ filter: { types: ['hold.opened'] } });
    expect(holds.map((e) => (e.data as { holdId: string }).holdId)).toEqual(holders);

    // The decider's state and the read models agree.
    const after = await current('inv_1');
    expect(after).toMatchObject({ status: 'reserved', quantity: 3, available: 0, reserved: 3, sold: 0 });
    expect(after?.reservation(`rsv_${won[0]}`)).toEqual({ quantity: 1, holderId: won[0] });
    expect(await itemDoc('inv_1')).toMatchObject({ status: 'reserved', quantity: 3, availableQuantity: 0, reservedQuantity: 3, soldQuantity: 0 });
    const reader = new InventoryReadModel(reads, projections);
    const held = await reader.reservationsOlderThan(new Date('2026-03-04T00:00:00.000Z'), 10);
    expect(held.reservations.map((r) => r.holderId).sort()).toEqual([...holders].sort());
  }, 30_000);

  it('release, sell and transfer through the loaded item; the read model follows the counts and the status', async () => {
    await createItem('inv_1', 2);
    await holdUnits(store, 'inv_1', 'hld_1');
    await holdUnits(store, 'inv_1', 'hld_2');
    expect(await itemDoc('inv_1')).toMatchObject({ status: 'reserved', availableQuantity: 0, reservedQuantity: 2 });

    const act = (work: (reservable: ReservableItem, tx: Transaction) => void) =>
      handleCommands(store, meta, async (tx) => {
        const reservable = await loadReservableItem(tx, WS, 'inv_1');
        if (!reservable) throw new Error('no item');
        work(reservable, tx);
        return { status: reservable.status, available: reservable.available, reserved: reservable.reserved, sold: reservable.sold };
      });

    // A hold becomes a trade; the hold's units now belong to the trade, which completes.
    expect((await act((r, tx) => r.transfer(tx, 'rsv_hld_1', 'trd_1', now))).streams).toHaveLength(1);
    expect((await act((r, tx) => r.transfer(tx, 'rsv_hld_1', 'trd_1', now))).streams).toHaveLength(0);
    expect((await act((r, tx) => r.sell(tx, 'rsv_hld_1', now))).value).toEqual({ status: 'reserved', available: 0, reserved: 1, sold: 1 });
    expect((await act((r, tx) => r.sell(tx, 'rsv_hld_1', now))).streams).toHaveLength(0);
    // The other hold expires: its unit is available again.
    expect((await act((r, tx) => r.release(tx, 'rsv_hld_2', 'hold_expired', now))).value).toEqual({ status: 'available', available: 1, reserved: 0, sold: 1 });
    expect((await act((r, tx) => r.release(tx, 'rsv_hld_2', 'hold_expired', now))).streams).toHaveLength(0);
    await expect(act((r, tx) => r.sell(tx, 'rsv_hld_2', now))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });

    expect(await itemDoc('inv_1')).toMatchObject({ status: 'available', quantity: 2, availableQuantity: 1, reservedQuantity: 0, soldQuantity: 1 });
    const reader = new InventoryReadModel(reads, projections);
    expect((await reader.reservationsOlderThan(new Date('2026-03-04T00:00:00.000Z'), 10)).reservations).toEqual([]);
    // Sold out: the last unit sold makes the item sold.
    await holdUnits(store, 'inv_1', 'hld_3');
    expect((await act((r, tx) => r.sell(tx, 'rsv_hld_3', now))).value).toEqual({ status: 'sold', available: 0, reserved: 0, sold: 2 });
    expect(await itemDoc('inv_1')).toMatchObject({ status: 'sold', availableQuantity: 0, reservedQuantity: 0, soldQuantity: 2 });
  });

  it('another workspace\'s item, a deleted one and a missing one load as none', async () => {
    await createItem('inv_1', 1);
    await createItem('inv_2', 1, 'ws_2');
    await handleCommand(store, inventoryStream('inv_1'), inventoryAggregate, { type: 'DeleteInventoryItem', inventoryItemId: 'inv_1', now }, meta);
    expect(await current('inv_1')).toBeNull();
    expect(await current('inv_2')).toBeNull();
    expect(await current('inv_9')).toBeNull();
    expect(await current('inv_2', 'ws_2')).toMatchObject({ workspaceId: 'ws_2', available: 1 });
  });

  it('heals a reservation whose holder never came to exist: the retry completes it, the process manager releases an orphan', async () => {
    await createItem('inv_1', 2);
    // EventStoreDB appends stream by stream: a crash after the item's append leaves the reservation alone.
    const partial = (holdId: string) =>
      handleCommands(store, meta, async (tx) => {
        (await loadReservableItem(tx, WS, 'inv_1'))?.reserve(tx, `rsv_${holdId}`, 1, holdId, now);
      });
    await partial('hld_retried');
    await partial('hld_lost');

    // The caller's retry of the same decision recognises its reservation and creates the hold.
    const retried = await holdUnits(store, 'inv_1', 'hld_retried');
    expect(retried.streams.map((s) => s.streamId)).toEqual([holdStream('hld_retried')]);

    // Trading's process manager: held reservations older than a cutoff whose holder does not exist are released.
    await projections.catchUp();
    const reader = new InventoryReadModel(reads, projections);
    const { reservations } = await reader.reservationsOlderThan(new Date('2026-03-03T10:05:00.000Z'), 100);
    const orphans: HeldReservationView[] = [];
    for (const r of reservations) if ((await store.readStream(holdStream(r.holderId))).length === 0) orphans.push(r);
    expect(orphans.map((r) => r.reservationId)).toEqual(['rsv_hld_lost']);
    await handleCommands(store, { actor: 'system:test' }, async (tx) => {
      for (const r of orphans) (await loadReservableItem(tx, r.workspaceId, r.inventoryItemId))?.release(tx, r.reservationId, 'orphaned', now);
    });

    expect(await current('inv_1')).toMatchObject({ status: 'available', available: 1, reserved: 1 });
    expect(await itemDoc('inv_1')).toMatchObject({ status: 'available', availableQuantity: 1, reservedQuantity: 1 });
    const [released] = (await store.readStream(inventoryStream('inv_1'))).filter((e) => e.type === 'inventory.released');
    expect(released.data).toMatchObject({ reservationId: 'rsv_hld_lost', holderId: 'hld_lost', reason: 'orphaned', status: 'available' });
    expect(released.metadata.workspaceId).toBe(WS);
  });
});
