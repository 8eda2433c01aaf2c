// The reservation reconciler heals what a crash between two streams' appends leaves on EventStoreDB
// (which appends a multi-stream decision stream by stream): the splits are made here by appending
// only the first stream of each decision, as a crash would leave them, on the real SQLite store.
// Cross-context on purpose: items are supply's, holders trading's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { DueTimer, RecordedEvent } from '@app/platform';
import { handleCommand, handleCommands } from '@app/platform/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';

import { inventoryAggregate } from '../../libs/supply/src/inventory/inventory.aggregate';
import { inventoryStream } from '../../libs/supply/src/inventory/inventory.events';
import { loadReservableItem } from '../../libs/supply/src/inventory/inventory.reservation';
import { holdAggregate } from '../../libs/trading/src/hold/hold.aggregate';
import { holdStream } from '../../libs/trading/src/hold/hold.events';
import { RESERVATION_GRACE_MS, ReservationReconciler, reservationSource } from '../../libs/trading/src/reservation-reconciler';
import { tradeAggregate } from '../../libs/trading/src/trade/trade.aggregate';
import { tradeStream } from '../../libs/trading/src/trade/trade.events';
import { openTrade } from '../../libs/trading/src/trade/trade.open';

const WS = 'ws_1';
const meta = { workspaceId: WS, actor: 'test' };
const now = new Date('2026-03-03T10:00:00.000Z');
const later = new Date(now.getTime() + RESERVATION_GRACE_MS);

describe('the reservation reconciler (crash splits, SQLite)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let reconciler: ReservationReconciler;
  const source = reservationSource();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-reconcile-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    reconciler = new ReservationReconciler(store);
    await handleCommand(store, inventoryStream('inv_1'), inventoryAggregate, { type: 'CreateInventoryItem', item: ITEM, now }, meta);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The item as a fresh transaction sees it. */
  const item = async () => (await handleCommands(store, meta, (tx) => loadReservableItem(tx, WS, 'inv_1'))).value;

  /** Appends only the item's half of a decision: what a crash after the first append leaves. */
  const itemOnly = (fn: (i: NonNullable<Awaited<ReturnType<typeof loadReservableItem>>>, tx: Parameters<Parameters<typeof handleCommands>[2]>[0]) => void) =>
    handleCommands(store, meta, async (tx) => fn((await loadReservableItem(tx, WS, 'inv_1')) as NonNullable<Awaited<ReturnType<typeof loadReservableItem>>>, tx));

  /** The timers the log's events schedule (and have not cancelled), as the timers projection keeps them. */
  async function pendingTimers(): Promise<DueTimer[]> {
    const pending = new Map<string, DueTimer>();
    for (const event of await store.readAll()) {
      if (!source.eventTypes.includes(event.type)) continue;
      const { schedule = [], cancel = [] } = source.timersOf(event as RecordedEvent);
      for (const id of cancel) pending.delete(id);
      for (const t of schedule) pending.set(t.timerId, t);
    }
    return [...pending.values()];
  }

  const fireAll = async () => reconciler.fire(await pendingTimers(), later);

  it('schedules nothing for a decision appended whole: the holder\'s first event cancels the check', async () => {
    await handleCommands(store, meta, (tx) => openTrade(tx, { workspaceId: WS, tradeId: 'trd_1', inventoryItemId: 'inv_1', buyerRequestId: null, matchId: null, offerId: null, quantity: 1, now }));
    expect(await pendingTimers()).toEqual([]);
    await fireAll();
    expect(await item()).toMatchObject({ reserved: 1, available: 1 });
  });

  it('leaves alone units held by a holder it does not own (a live lot): that context settles them', async () => {
    await itemOnly((i, tx) => i.reserve(tx, 'lot_1', 1, 'lot_1', now));
    expect(await pendingTimers()).toEqual([expect.objectContaining({ timerId: 'reservation-check:inv_1/lot_1' })]);
    await fireAll();
    expect(await item()).toMatchObject({ reserved: 1, available: 1 });
  });

  it('releases units reserved for a trade that never came to exist', async () => {
    await itemOnly((i, tx) => i.reserve(tx, 'trd_lost', 1, 'trd_lost', now));
    const timers = await pendingTimers();
    expect(timers).toEqual([expect.objectContaining({ timerId: 'reservation-check:inv_1/trd_lost', dueAt: later.toISOString() })]);
    expect(await item()).toMatchObject({ reserved: 1, available: 1 });
    await fireAll();
    expect(await item()).toMatchObject({ reserved: 0, available: 2 });
    // The release cancels the check: nothing is left to fire.
    expect(await pendingTimers()).toEqual([]);
  });

  it('releases the units of a trade cancelled, and sells those of a trade completed, when the item\'s half was lost', async () => {
    for (const id of ['trd_c', 'trd_d']) {
      await handleCommands(store, meta, (tx) => openTrade(tx, { workspaceId: WS, tradeId: id, inventoryItemId: 'inv_1', buyerRequestId: null, matchId: null, offerId: null, quantity: 1, now }));
    }
    // The trade's half of its move only.
    await handleCommand(store, tradeStream('trd_c'), tradeAggregate, { type: 'MoveTrade', tradeId: 'trd_c', to: 'cancelled', now }, meta);
    for (const to of ['paid', 'shipped', 'delivered', 'completed'] as const) {
      await handleCommand(store, tradeStream('trd_d'), tradeAggregate, { type: 'MoveTrade', tradeId: 'trd_d', to, now }, meta);
    }
    expect(await item()).toMatchObject({ reserved: 2, sold: 0 });
    await fireAll();
    expect(await item()).toMatchObject({ reserved: 0, sold: 1, available: 1 });
    expect(await pendingTimers()).toEqual([]);
  });

  it('gives a hold back its units when its conversion reserved them for a trade that never came to exist', async () => {
    await handleCommands(store, meta, async (tx) => {
      const i = await loadReservableItem(tx, WS, 'inv_1');
      i?.reserve(tx, 'hld_1', 1, 'hld_1', now);
      tx.decide(tx.create(holdStream('hld_1'), holdAggregate), {
        type: 'PlaceHold',
        hold: { holdId: 'hld_1', inventoryItemId: 'inv_1', buyerRequestId: null, quantity: 1, depositMinor: 0, currency: 'USD', amountMinor: 45000, expiresAt: later.toISOString() },
        now,
      });
    });
    await itemOnly((i, tx) => i.transfer(tx, 'hld_1', 'trd_never', now));
    await fireAll();
    const after = await item();
    expect(after?.reservation('hld_1')).toMatchObject({ holderId: 'hld_1', quantity: 1 });
    expect(after).toMatchObject({ reserved: 1, available: 1 });
  });

  it('leaves a live holder\'s units alone', async () => {
    await handleCommands(store, meta, (tx) => openTrade(tx, { workspaceId: WS, tradeId: 'trd_live', inventoryItemId: 'inv_1', buyerRequestId: null, matchId: null, offerId: null, quantity: 2, now }));
    const before = (await store.readAll()).length;
    await reconciler.fire([{ timerId: 'reservation-check:inv_1/trd_live', kind: 'reservation.reconcile', dueAt: later.toISOString(), workspaceId: WS, subjectId: 'inv_1/trd_live' }], later);
    expect((await store.readAll()).length).toBe(before);
  });
});

const ITEM = {
  inventoryItemId: 'inv_1',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  priceMinor: 45000,
  currency: 'USD',
  quantity: 2,
  status: 'available' as const,
  sku: null,
  cardNumber: null,
  notes: null,
  match: { cardKey: 'charizard', setKey: 'base1', matchKey: 'base1|charizard', conditionClass: 'raw', conditionScore: 5, gradingCompany: null },
  input: { cardName: 'charizard', setName: 'base', condition: 'nm' },
  ingestion: null,
};
