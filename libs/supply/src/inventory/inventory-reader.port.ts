// What other contexts may read of inventory (matching, to find the items that meet demand):
// read-only views, through queries supply owns, so no one else knows its collections or indexes.
import type { InventoryStatus } from './inventory.events';

export const INVENTORY_READER = Symbol('INVENTORY_READER');

/**
 * An inventory item as others see it: what it is (display and normalized identity), its price,
 * status and unit counts. An item is for sale while `status` is `available`, which holds exactly
 * while `availableQuantity` > 0 (an item of 2 units with 1 reserved stays available, with 1).
 */
export interface InventoryItemView {
  id: string;
  workspaceId: string;
  status: InventoryStatus;
  cardName: string;
  setName: string;
  condition: string;
  priceMinor: number;
  currency: string;
  /** Total units. */
  quantity: number;
  /** Units a trade or hold can reserve now: quantity − reserved − sold while `available`, else 0. */
  availableQuantity: number;
  /** Units held by reservations (trades, holds). */
  reservedQuantity: number;
  /** Units sold through reservations. */
  soldQuantity: number;
  cardKey: string;
  setKey: string;
  matchKey: string;
  conditionClass: string;
  conditionScore: number;
  gradingCompany: string | null;
}

/**
 * What a buyer asks for, as far as finding the items that fully meet it goes. Only the card is
 * always given: a null `matchKey` is any printing of `cardKey`, a null `conditionClass` any
 * condition, a null `maxPriceMinor` any price.
 */
export interface WantedItem {
  workspaceId: string;
  cardKey: string;
  /** The card in one set (set|card); null: any set. */
  matchKey: string | null;
  currency: string;
  /** null: any condition (then `minConditionScore` is not looked at). */
  conditionClass: string | null;
  /** The lowest acceptable condition score. */
  minConditionScore: number;
  /** null: no price limit. */
  maxPriceMinor: number | null;
}

/** A reservation held on an item (for trading's process manager that releases orphans). */
export interface HeldReservationView {
  workspaceId: string;
  inventoryItemId: string;
  reservationId: string;
  /** The trade (`trd_…`) or hold (`hld_…`) holding the units. */
  holderId: string;
  quantity: number;
  /** ISO-8601 UTC. */
  reservedAt: string;
}

export interface HeldReservationPage {
  /** Oldest first. */
  reservations: HeldReservationView[];
  /** Pass back as `after` for the next page; null when there is none. */
  nextCursor: string | null;
}

export interface InventoryReader {
  /** A log position the inventory read model has certainly applied. */
  appliedPosition(): Promise<number>;
  /** Available items that fully meet `wanted` (card and set, currency, condition, price; open fields any), cheapest first. */
  availableFor(wanted: WantedItem, limit: number): Promise<InventoryItemView[]>;
  /** Available items under any of these match keys (set|card) in `currency` up to a price (null: any), cheapest first. */
  availableByMatchKeys(workspaceId: string, matchKeys: readonly string[], currency: string, maxPriceMinor: number | null, limit: number): Promise<InventoryItemView[]>;
  /** Available items of any of these cards, whatever their set, in `currency` up to a price (null: any), cheapest first. */
  availableByCardKeys(workspaceId: string, cardKeys: readonly string[], currency: string, maxPriceMinor: number | null, limit: number): Promise<InventoryItemView[]>;
  /** Available items of a set in `currency`, whatever their name (where typos are found), at most `limit`. */
  availableInSet(workspaceId: string, setKey: string, currency: string, limit: number): Promise<InventoryItemView[]>;
  /** The items with these ids that exist (any workspace: callers compare `workspaceId`). */
  getMany(ids: readonly string[]): Promise<InventoryItemView[]>;
  /**
   * Reservations still held that were made before `cutoff`, every workspace, oldest first, at most
   * `limit` a page (`after`: the previous page's `nextCursor`). For the process manager that
   * releases the reservations whose holder never came to exist (EventStoreDB appends the item
   * before the trade or hold; a crash between them leaves a reservation without its holder).
   */
  reservationsOlderThan(cutoff: Date, limit: number, after?: string): Promise<HeldReservationPage>;
}
