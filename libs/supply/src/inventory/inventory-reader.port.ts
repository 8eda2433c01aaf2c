// What other contexts may read of inventory (matching, to find the items that meet demand):
// read-only views, through queries supply owns, so no one else knows its collections or indexes.
import type { InventoryStatus } from './inventory.events';

export const INVENTORY_READER = Symbol('INVENTORY_READER');

/** An inventory item as others see it: what it is (display and normalized identity), its price and status. */
export interface InventoryItemView {
  id: string;
  workspaceId: string;
  status: InventoryStatus;
  cardName: string;
  setName: string;
  condition: string;
  priceMinor: number;
  currency: string;
  quantity: number;
  cardKey: string;
  setKey: string;
  matchKey: string;
  conditionClass: string;
  conditionScore: number;
  gradingCompany: string | null;
}

/** What a buyer asks for, as far as finding the items that fully meet it goes. */
export interface WantedItem {
  workspaceId: string;
  matchKey: string;
  currency: string;
  conditionClass: string;
  /** The lowest acceptable condition score. */
  minConditionScore: number;
  maxPriceMinor: number;
}

export interface InventoryReader {
  /** A log position the inventory read model has certainly applied. */
  appliedPosition(): Promise<number>;
  /** Available items that fully meet `wanted` (card and set, currency, condition, price), cheapest first. */
  availableFor(wanted: WantedItem, limit: number): Promise<InventoryItemView[]>;
  /** Available items under any of these match keys (set|card) in `currency` up to a price, cheapest first. */
  availableByMatchKeys(workspaceId: string, matchKeys: readonly string[], currency: string, maxPriceMinor: number, limit: number): Promise<InventoryItemView[]>;
  /** Available items of a set in `currency`, whatever their name (where typos are found), at most `limit`. */
  availableInSet(workspaceId: string, setKey: string, currency: string, limit: number): Promise<InventoryItemView[]>;
  /** The items with these ids that exist (any workspace: callers compare `workspaceId`). */
  getMany(ids: readonly string[]): Promise<InventoryItemView[]>;
}
