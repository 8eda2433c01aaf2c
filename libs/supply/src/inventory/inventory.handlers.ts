// Command handlers for inventory items, each one command on the item's stream through the write
// path. Names and conditions are normalized here (with @app/catalog), so the decider only ever sees
// normalized data. Another workspace's item is answered exactly like a missing one (NOT_FOUND): the
// write path loads a stream of another workspace as absent.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections } from '@app/platform';
import { handleCommand } from '@app/platform/domain';

import { inventoryAggregate } from './inventory.aggregate';
import type { UpdateInventoryItem } from './inventory.decider';
import { type InventoryCreated, inventoryStream } from './inventory.events';
import {
  type InventoryItemPatch,
  type ListingNormalization,
  type NewInventoryItem,
  normalizeListingText,
  resolvePatch,
} from './inventory.normalization';
import { type InventoryItemDoc, inventoryProjection } from './inventory.projection';

export interface InventoryWriteResult {
  id: string;
  /** Global position of the write; 0 when nothing was appended (a no-op update). */
  position: number;
  normalization: Partial<ListingNormalization>;
  /** The item as its read model now holds it (what its GET reads), from the write itself. */
  doc: InventoryItemDoc;
}

export interface CreatedInventoryItem extends InventoryWriteResult {
  normalization: ListingNormalization;
  /** The stored item. */
  item: InventoryCreated;
}

/**
 * The item's document the write left, or for a write that appended nothing (a repeat) the item
 * as the log holds it. An item the write path just decided on has one: none is a bug.
 */
async function itemAfter(inline: InlineProjections, id: string, documents: InlineDocuments | null): Promise<InventoryItemDoc> {
  const doc = await inline.document(inventoryProjection, inventoryStream(id), documents);
  if (!doc) throw new Error(`Inventory item ${id} was decided on, yet its read model has no document`);
  return doc;
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
    private readonly inline: InlineProjections,
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
      inventoryAggregate,
      { type: 'CreateInventoryItem', item: stored, now },
      { workspaceId, actor, correlationId },
      { newStream: true },
    );
    return {
      id,
      position: result.position ?? 0,
      normalization: normalized.report,
      item: { ...stored, createdAt: now.toISOString() },
      doc: await itemAfter(this.inline, id, result.documents),
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
    /** `If-Match`: the item's revision the change was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(UpdateInventoryItemCommand)
export class UpdateInventoryItemHandler implements ICommandHandler<UpdateInventoryItemCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  /** The item after the change; a change that changes nothing answers it as the log holds it. */
  async execute({ workspaceId, actor, id, patch, correlationId, ifMatch }: UpdateInventoryItemCommand): Promise<InventoryWriteResult> {
    const now = this.clock.now();
    let normalization: Partial<ListingNormalization> = {};
    // Changed names are normalized against the state the decider decides on (made again on every
    // version-conflict retry), so an item's display names and its matching identity never drift
    // apart under concurrent edits.
    const result = await handleCommand(
      this.events,
      inventoryStream(id),
      inventoryAggregate,
      (state): UpdateInventoryItem => {
        const resolved = resolvePatch(patch, state);
        normalization = resolved.normalization;
        return { type: 'UpdateInventoryItem', inventoryItemId: id, changes: resolved.changes, now };
      },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return { id, position: result.position ?? 0, normalization, doc: await itemAfter(this.inline, id, result.documents) };
  }
}

/** `revision`: the item's stream revision its deletion left (the answer's ETag). */
export class DeleteInventoryItemCommand extends Command<{ id: string; position: number; revision: number }> {
  constructor(
    readonly workspaceId: string,
    readonly actor: string,
    readonly id: string,
    readonly correlationId?: string,
    /** `If-Match`: the item's revision the deletion was decided on. */
    readonly ifMatch?: number,
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

  async execute({ workspaceId, actor, id, correlationId, ifMatch }: DeleteInventoryItemCommand) {
    const result = await handleCommand(
      this.events,
      inventoryStream(id),
      inventoryAggregate,
      { type: 'DeleteInventoryItem', inventoryItemId: id, now: this.clock.now() },
      { workspaceId, actor, correlationId },
      { ifMatch },
    );
    return { id, position: result.position ?? 0, revision: result.revision };
  }
}

export const INVENTORY_COMMAND_HANDLERS = [CreateInventoryItemHandler, UpdateInventoryItemHandler, DeleteInventoryItemHandler];
