// Opening a trade inside a write transaction: the one way every path (a match, an item, an
// accepted offer, a converted hold) reserves units and initiates the trade. Reservation first —
// the inventory item's stream is loaded and decided before the trade's — so on EventStoreDB, which
// appends stream by stream, a crash between the two leaves at worst a reservation without its
// trade, which the reservation reconciler releases; never a trade without its units.
import { DomainError, type Transaction } from '@app/platform/domain';
import { loadReservableItem, type ReservableItem } from '@app/supply';

import { tradeAggregate } from './trade.aggregate';
import { tradeStream } from './trade.events';

export interface TradeTerms {
  workspaceId: string;
  tradeId: string;
  inventoryItemId: string;
  buyerRequestId: string | null;
  matchId: string | null;
  offerId: string | null;
  quantity: number;
  /** Default: the item's price × quantity. */
  amountMinor?: number;
  /** Must be the item's; default it. */
  currency?: string;
  /** The buyer sealed with `tradingBuyerContext(tradeId)`, when the trade names its own (a live win). */
  buyerSealed?: string | null;
  now: Date;
}

/** A hold's reservation the trade takes over (a conversion), with the deposit paid toward it. */
export interface FromHold {
  holdId: string;
  depositMinor: number;
}

/** Items loaded per transaction: a batch (holds expiring together) may touch one item many times. */
const loaded = new WeakMap<Transaction, Map<string, ReservableItem>>();

/**
 * The item of `workspaceId` in `tx` (loaded once per transaction), or NOT_FOUND — naming `field`
 * when the id is one a request sent (its body's `inventoryItemId`).
 */
export async function itemFor(tx: Transaction, workspaceId: string, inventoryItemId: string, field?: string): Promise<ReservableItem> {
  let items = loaded.get(tx);
  if (!items) loaded.set(tx, (items = new Map()));
  const known = items.get(inventoryItemId);
  if (known) return known;
  const item = await loadReservableItem(tx, workspaceId, inventoryItemId);
  if (!item && field !== undefined) throw DomainError.unknownReference(field, 'inventory item', inventoryItemId);
  if (!item) throw new DomainError('NOT_FOUND', `No inventory item with id ${inventoryItemId}`);
  items.set(inventoryItemId, item);
  return item;
}

/**
 * Reserves (or takes over a hold's reservation) and initiates the trade; returns the terms used.
 * With `ifAbsent`, a trade that exists already (a replayed decision) is left as it is.
 */
export async function openTrade(tx: Transaction, terms: TradeTerms, hold?: FromHold, options: { ifAbsent?: boolean } = {}): Promise<{ amountMinor: number; currency: string }> {
  const item = await itemFor(tx, terms.workspaceId, terms.inventoryItemId);
  const currency = terms.currency ?? item.currency;
  if (currency !== item.currency) {
    throw DomainError.validation(`The item is priced in ${item.currency}, not ${currency}`, [
      { path: 'currency', message: `must be the item's currency (${item.currency})` },
    ]);
  }
  const amountMinor = terms.amountMinor ?? item.priceMinor * terms.quantity;
  const reservationId = hold?.holdId ?? terms.tradeId;
  const trade = options.ifAbsent ? await tx.load(tradeStream(terms.tradeId), tradeAggregate, { workspaceId: terms.workspaceId }) : tx.create(tradeStream(terms.tradeId), tradeAggregate);
  if (trade.state.status !== 'none') return { amountMinor, currency };
  if (hold) item.transfer(tx, reservationId, terms.tradeId, terms.now);
  else item.reserve(tx, reservationId, terms.quantity, terms.tradeId, terms.now);
  tx.decide(trade, {
    type: 'InitiateTrade',
    trade: {
      tradeId: terms.tradeId,
      inventoryItemId: terms.inventoryItemId,
      buyerRequestId: terms.buyerRequestId,
      matchId: terms.matchId,
      offerId: terms.offerId,
      holdId: hold?.holdId ?? null,
      reservationId,
      quantity: terms.quantity,
      amountMinor,
      currency,
      depositMinor: hold?.depositMinor ?? 0,
      ...(terms.buyerSealed ? { buyerSealed: terms.buyerSealed } : {}),
    },
    now: terms.now,
  });
  return { amountMinor, currency };
}
