// Command and query handlers for inventory items. Names and conditions are normalized here (with
// @app/catalog), so the decider only ever sees normalized data.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { normalizeCardName, normalizeSetName } from '@app/catalog';
import {
  type Aggregate,
  CLOCK,
  type Clock,
  type Decider,
  DomainError,
  EVENT_STORE,
  type EventStore,
  type Filter,
  handleCommand,
  ID_GENERATOR,
  type IdGenerator,
  type Page,
  READ_STORE,
  type ReadStore,
  type RecordedEvent,
  streamEntityId,
} from '@app/platform';

import {
  inventoryDecider,
  type InventoryState,
  type UpdateInventoryItem,
} from './inventory.decider';
import {
  type InventoryCreated,
  type InventoryEvent,
  type InventoryStatus,
  inventoryStream,
  parseInventoryEvent,
} from './inventory.events';
import {
  type InventoryItemPatch,
  type ListingNormalization,
  type NewInventoryItem,
  normalizeListingText,
  resolvePatch,
} from './inventory.normalization';
import { INVENTORY_ITEMS, type InventoryItemDoc } from './inventory.projection';


/**
 * Loading refuses another workspace's item as NOT_FOUND, exactly as a missing one: the stream's
 * workspace lives in the events' metadata, which the decider never sees.
 */
function inWorkspace<C>(
  workspaceId: string,
  decider: Decider<C, InventoryEvent, InventoryState>,
): Aggregate<C, InventoryEvent, InventoryState> {
  return {
    decider,
    parseEvent(event: RecordedEvent): InventoryEvent {
      if (event.metadata.workspaceId !== workspaceId) {
        throw new DomainError('NOT_FOUND', `No inventory item with id ${streamEntityId(event.streamId)}`);
      }
      return parseInventoryEvent(event);
    },
  };
}

export interface InventoryWriteResult {
  id: string;
  /** Global position of the write; 0 when nothing was appended (a no-op update). */
  position: number;
  normalization: Partial<ListingNormalization>;
}

export interface CreatedInventoryItem extends InventoryWriteResult {
  normalization: ListingNormalization;
  /** The stored item, so the answer needs no read model. */
  item: InventoryCreated;
}

export class CreateInventoryItemCommand extends Command<CreatedInventoryItem> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly item: NewInventoryItem,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateInventoryItemCommand)
export class CreateInventoryItemHandler implements ICommandHandler<CreateInventoryItemCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ workspaceId, actor, item, correlationId }: CreateInventoryItemCommand): Promise<CreatedInventoryItem> {
    const id = this.ids.next('inv');
    const { cardName, setName, condition, ...rest } = item;
    const normalized = normalizeListingText({ cardName, setName, condition });
    const now = this.clock.now();
    const stored: Omit<InventoryCreated, 'createdAt'> = {
      inventoryItemId: id,
      ...normalized.display,
      ...rest,
      match: normalized.match,
      input: { cardName, setName, condition },
      ingestion: null,
    };
    const result = await handleCommand(
      this.events,
      inventoryStream(id),
      inWorkspace(workspaceId, inventoryDecider),
      { type: 'CreateInventoryItem', item: stored, now },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return {
      id,
      position: result.position ?? 0,
      normalization: normalized.report,
      item: { ...stored, createdAt: now.toISOString() },
    };
  }
}

export class UpdateInventoryItemCommand extends Command<InventoryWriteResult> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly patch: InventoryItemPatch,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(UpdateInventoryItemCommand)
export class UpdateInventoryItemHandler implements ICommandHandler<UpdateInventoryItemCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, id, patch, correlationId }: UpdateInventoryItemCommand): Promise<InventoryWriteResult> {
    const now = this.clock.now();
    let normalization: Partial<ListingNormalization> = {};
    // Changed names are normalized against the state the decider decides on (re-read on every
    // version-conflict retry), so an item's display names and its matching identity never drift
    // apart under concurrent edits.
    const normalizing: Decider<InventoryItemPatch, InventoryEvent, InventoryState> = {
      initialState: inventoryDecider.initialState,
      evolve: inventoryDecider.evolve,
      decide(raw, state) {
        const resolved = resolvePatch(raw, state);
        normalization = resolved.normalization;
        const command: UpdateInventoryItem = { type: 'UpdateInventoryItem', inventoryItemId: id, changes: resolved.changes, now };
        return inventoryDecider.decide(command, state);
      },
    };
    const result = await handleCommand(
      this.events,
      inventoryStream(id),
      inWorkspace(workspaceId, normalizing),
      patch,
      { workspaceId, actor, correlationId },
    );
    return { id, position: result.position ?? 0, normalization };
  }
}

export class DeleteInventoryItemCommand extends Command<{ id: string; position: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly correlationId?: string,
  ) {
    super();
  }
}

@CommandHandler(DeleteInventoryItemCommand)
export class DeleteInventoryItemHandler implements ICommandHandler<DeleteInventoryItemCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, actor, id, correlationId }: DeleteInventoryItemCommand) {
    const result = await handleCommand(
      this.events,
      inventoryStream(id),
      inWorkspace(workspaceId, inventoryDecider),
      { type: 'DeleteInventoryItem', inventoryItemId: id, now: this.clock.now() },
      { workspaceId, actor, correlationId },
    );
    return { id, position: result.position ?? 0 };
  }
}

export class GetInventoryItemQuery extends Query<InventoryItemDoc | null> {
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

  async execute({ workspaceId, id }: GetInventoryItemQuery): Promise<InventoryItemDoc | null> {
    const doc = await this.reads.collection<InventoryItemDoc>(INVENTORY_ITEMS).get(id);
    // Another workspace's item is answered exactly like a missing one.
    return doc && doc.workspaceId === workspaceId ? doc : null;
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

export const INVENTORY_HANDLERS = [
  CreateInventoryItemHandler,
  UpdateInventoryItemHandler,
  DeleteInventoryItemHandler,
  GetInventoryItemHandler,
  ListInventoryItemsHandler,
];
