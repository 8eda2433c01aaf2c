// What a push turns a session into: one `inventory.created` event per pushable row, built by the
// inventory decider (its rules live there), with ids derived from (session, row). Deterministic
// ids make a retried or crashed push append the very same events, which the event store then
// recognises by id instead of duplicating items. Pure.
import { createHash } from 'node:crypto';

import { encodeTime } from 'ulid';

import { base32, CROCKFORD_BASE32, DomainError } from '@app/platform/domain';

import { type CreateInventoryItem, inventoryDecider } from '../inventory/inventory.decider';
import type { InventoryCreated, InventoryEvent } from '../inventory/inventory.events';
import type { ExistingSession } from './intake.decider';
import type { IntakeRow } from './intake.events';

export type PlannedEvent = InventoryEvent & { id: string };

export interface PlannedItem {
  row: number;
  inventoryItemId: string;
  /** The command that creates the item (its stream is new). */
  command: CreateInventoryItem;
  /** What the inventory decider makes of it: the item's new stream, each event with its deterministic id. */
  events: PlannedEvent[];
}

export interface PushPlan {
  items: PlannedItem[];
  /** Rows not pushed: every row with errors, and rows the inventory decider refused. */
  skippedRows: number[];
  rejections: Array<{ row: number; message: string }>;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * `inv_` + a ULID: the time part is when the row was added, the random part is 50 bits of the
 * session id's hash followed by the row number (30 bits) — unique, stable across retries, and in
 * row order within one add. The prefix is the same for a whole add: compute it once.
 */
export function inventoryItemIdPrefix(sessionId: string, addedAt: string): string {
  return `inv_${encodeTime(Date.parse(addedAt), 10)}${base32(digest(`ingestion:${sessionId}`), 10)}`;
}

export function inventoryItemIdFor(sessionId: string, row: number, addedAt: string, prefix = inventoryItemIdPrefix(sessionId, addedAt)): string {
  if (!Number.isInteger(row) || row < 1 || row >= 2 ** 30) throw new RangeError(`row ${row} out of range`);
  let rowPart = '';
  for (let rest = row, i = 0; i < 6; i += 1, rest = Math.floor(rest / 32)) rowPart = CROCKFORD_BASE32[rest % 32] + rowPart;
  return prefix + rowPart;
}

/** A name-based (version 5 layout) uuid for the `index`th event of the row's item stream. */
export function inventoryEventIdFor(sessionId: string, row: number, index = 0): string {
  const bytes = digest(`ingestion:${sessionId}:${row}:${index}`).subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The inventory item a pushable row becomes; null when the row lacks what an item needs. */
export function inventoryItemOf(sessionId: string, row: IntakeRow, inventoryItemId: string): Omit<InventoryCreated, 'createdAt'> | null {
  const f = row.fields;
  if (
    row.status === 'error' ||
    f.cardName === null ||
    f.setName === null ||
    f.condition === null ||
    f.priceMinor === null ||
    f.currency === null ||
    f.quantity === null ||
    row.match === null
  ) {
    return null;
  }
  return {
    inventoryItemId,
    cardName: f.cardName,
    setName: f.setName,
    condition: f.condition,
    priceMinor: f.priceMinor,
    currency: f.currency,
    quantity: f.quantity,
    status: 'available',
    sku: f.sku,
    cardNumber: f.cardNumber,
    notes: f.notes,
    match: row.match,
    input: row.input,
    ingestion: { sessionId, row: row.row },
  };
}

export function planPush(session: ExistingSession, now: Date): PushPlan {
  const plan: PushPlan = { items: [], skippedRows: [], rejections: [] };
  for (const batch of session.batches) {
    const prefix = inventoryItemIdPrefix(session.sessionId, batch.addedAt);
    for (const row of batch.rows) {
      const inventoryItemId = inventoryItemIdFor(session.sessionId, row.row, batch.addedAt, prefix);
      const item = inventoryItemOf(session.sessionId, row, inventoryItemId);
      if (item === null) {
        plan.skippedRows.push(row.row);
        // Rows with errors are skipped by rule; any other skip must say why.
        if (row.status !== 'error') plan.rejections.push({ row: row.row, message: 'The row lacks a field an inventory item needs' });
        continue;
      }
      try {
        const command: CreateInventoryItem = { type: 'CreateInventoryItem', item, now };
        const events = inventoryDecider
          .decide(command, inventoryDecider.initialState)
          .map((event, i) => ({ ...event, id: inventoryEventIdFor(session.sessionId, row.row, i) }));
        plan.items.push({ row: row.row, inventoryItemId, command, events });
      } catch (error) {
        // A rule of the inventory that row normalization did not foresee: skip the row, say why.
        if (!(error instanceof DomainError)) throw error;
        plan.skippedRows.push(row.row);
        plan.rejections.push({ row: row.row, message: error.message });
      }
    }
  }
  return plan;
}
