// Query handlers for the inventory routes, and the read-only port other contexts read items
// through (InventoryReader).
import { Inject, Injectable } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { normalizeCardName, normalizeSetName } from '@app/catalog';
import { type Filter, getOwned, type Page, ProjectionRunner, READ_STORE, type ReadStore } from '@app/platform';

import type { HeldReservationPage, InventoryItemView, InventoryReader, WantedItem } from './inventory-reader.port';
import type { InventoryStatus } from './inventory.events';
import {
  INVENTORY_ITEMS,
  INVENTORY_RESERVATIONS,
  type InventoryItemDoc,
  inventoryProjection,
  type InventoryReservationDoc,
} from './inventory.projection';

/** The inventory item of this workspace, or NOT_FOUND. */
export class GetInventoryItemQuery extends Query<InventoryItemDoc> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetInventoryItemQuery)
export class GetInventoryItemHandler implements IQueryHandler<GetInventoryItemQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, id }: GetInventoryItemQuery): Promise<InventoryItemDoc> {
    return getOwned(this.reads.collection<InventoryItemDoc>(INVENTORY_ITEMS), workspaceId, id, 'inventory item');
  }
}

export interface InventoryListFilters {
  status?: InventoryStatus;
  /** Free text: matched by normalized identity, so "charizard" finds "Charizard". */
  cardName?: string;
  setName?: string;
  minPriceMinor?: number;
  maxPriceMinor?: number;
  currency?: string;
}

export class ListInventoryItemsQuery extends Query<Page<InventoryItemDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly filters: InventoryListFilters,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

/** The read-store filter of a listing (exported for the index tests). */
export function inventoryListFilter(workspaceId: string, filters: InventoryListFilters): Filter {
  const filter: Record<string, Filter[string]> = { workspaceId };
  if (filters.status) filter.status = filters.status;
  if (filters.cardName !== undefined) filter.cardKey = normalizeCardName(filters.cardName).value.key;
  if (filters.setName !== undefined) filter.setKey = normalizeSetName(filters.setName).value.key;
  if (filters.currency) filter.currency = filters.currency;
  if (filters.minPriceMinor !== undefined || filters.maxPriceMinor !== undefined) {
    filter.priceMinor = {
      ...(filters.minPriceMinor !== undefined ? { $gte: filters.minPriceMinor } : {}),
      ...(filters.maxPriceMinor !== undefined ? { $lte: filters.maxPriceMinor } : {}),
    };
  }
  return filter;
}

@QueryHandler(ListInventoryItemsQuery)
export class ListInventoryItemsHandler implements IQueryHandler<ListInventoryItemsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, filters, limit, cursor }: ListInventoryItemsQuery): Promise<Page<InventoryItemDoc>> {
    return this.reads
      .collection<InventoryItemDoc>(INVENTORY_ITEMS)
      .find(inventoryListFilter(workspaceId, filters), { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

@Injectable()
export class InventoryReadModel implements InventoryReader {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionRunner,
  ) {}

  private get items() {
    return this.reads.collection<InventoryItemDoc>(INVENTORY_ITEMS);
  }

  appliedPosition(): Promise<number> {
    return this.projections.appliedPosition(inventoryProjection.name);
  }

  // "Available" below is `status: 'available'`: the status follows the unit counts, so an item is
  // available exactly while it has units to reserve (availableQuantity > 0), and the indexes keep
  // serving these queries by status.

  async availableFor(wanted: WantedItem, limit: number): Promise<InventoryItemView[]> {
    // The `by_match` index (or `by_card_match` for any printing): equality on identity, status,
    // currency and condition class, then the price bound in price order; the condition score is
    // checked on the rows the range leaves. An open condition or price drops its bound.
    const filter: Record<string, Filter[string]> = { workspaceId: wanted.workspaceId, status: 'available', currency: wanted.currency };
    if (wanted.matchKey === null) filter.cardKey = wanted.cardKey;
    else filter.matchKey = wanted.matchKey;
    if (wanted.conditionClass !== null) {
      filter.conditionClass = wanted.conditionClass;
      filter.conditionScore = { $gte: wanted.minConditionScore };
    }
    if (wanted.maxPriceMinor !== null) filter.priceMinor = { $lte: wanted.maxPriceMinor };
    const page = await this.items.find(filter, { sort: [['priceMinor', 1]], limit });
    return page.items;
  }

  async availableByMatchKeys(workspaceId: string, matchKeys: readonly string[], currency: string, maxPriceMinor: number | null, limit: number): Promise<InventoryItemView[]> {
    const page = await this.items.find(
      { workspaceId, matchKey: { $in: [...matchKeys] }, status: 'available', currency, ...(maxPriceMinor === null ? {} : { priceMinor: { $lte: maxPriceMinor } }) },
      { sort: [['priceMinor', 1]], limit },
    );
    return page.items;
  }

  async availableByCardKeys(workspaceId: string, cardKeys: readonly string[], currency: string, maxPriceMinor: number | null, limit: number): Promise<InventoryItemView[]> {
    const page = await this.items.find(
      { workspaceId, cardKey: { $in: [...cardKeys] }, status: 'available', currency, ...(maxPriceMinor === null ? {} : { priceMinor: { $lte: maxPriceMinor } }) },
      { sort: [['priceMinor', 1]], limit },
    );
    return page.items;
  }

  async availableInSet(workspaceId: string, setKey: string, currency: string, limit: number): Promise<InventoryItemView[]> {
    const page = await this.items.find({ workspaceId, setKey, status: 'available', currency }, { limit });
    return page.items;
  }

  getMany(ids: readonly string[]): Promise<InventoryItemView[]> {
    return this.items.getMany(ids);
  }

  async reservationsOlderThan(cutoff: Date, limit: number, after?: string): Promise<HeldReservationPage> {
    // Held reservations made before the cutoff (the `by_reserved` index), oldest first.
    const page = await this.reads
      .collection<InventoryReservationDoc>(INVENTORY_RESERVATIONS)
      .find({ reservedAt: { $lt: cutoff.toISOString() } }, { sort: [['reservedAt', 1]], limit, after });
    return {
      reservations: page.items.map(({ workspaceId, inventoryItemId, reservationId, holderId, quantity, reservedAt }) => ({
        workspaceId,
        inventoryItemId,
        reservationId,
        holderId,
        quantity,
        reservedAt,
      })),
      nextCursor: page.nextCursor,
    };
  }
}

export const INVENTORY_QUERY_HANDLERS = [GetInventoryItemHandler, ListInventoryItemsHandler];
