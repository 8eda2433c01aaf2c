// Request and response shapes of the intake routes (REST bodies: camelCase; money as decimals).
import { z } from 'zod';

import { currencyCode, fromMinor, listResponseSchema, paginationQuery } from '@app/platform';

import { MAX_ROWS_PER_CALL } from './intake.decider';
import { type IngestionPushed, type IntakeRow, rawValue, ROW_STATUSES } from './intake.events';
import type { IngestionCounts, IngestionSessionDoc } from './intake.projection';
import type { IngestionRowView } from './intake.queries';

export const createSessionBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional().meta({ description: 'A label for people, e.g. the file or show it came from.' }),
    source: z.string().trim().min(1).max(100).optional().meta({ description: 'Where the rows come from (free text).' }),
    defaultCurrency: currencyCode.optional().meta({ description: 'ISO 4217 code for rows that name no currency; default `USD`.' }),
  })
  .meta({ id: 'CreateIngestionSession' });

export const sessionIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Ingestion session id (`ing_…`).', examples: ['ing_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

const MAX_COLUMNS = 50;

const rawRow = z
  .record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
  .refine((row) => Object.keys(row).length <= MAX_COLUMNS, `a row has at most ${MAX_COLUMNS} columns`)
  .meta({ description: 'One raw row: column name → value (string, number, boolean or null).' });

export const addItemsBody = z
  .array(rawRow)
  .min(1)
  .max(MAX_ROWS_PER_CALL)
  .meta({ id: 'IngestionItems', description: `A JSON array of 1 to ${MAX_ROWS_PER_CALL} raw rows (or CSV text, see the description).` });

export const addItemsBodyExample = [
  { 'Card Name': 'charizard', Set: 'Base Set', Condition: 'NM', Price: '$450.50', Qty: 1 },
  { card_name: 'Blastoise', set: 'BS', cond: 'PSA 9', price: 325, sku: 'B-002', rarity: 'Rare Holo' },
  { name: 'Pikachu', set: 'Jungle', condition: 'LP', price: 'twelve' },
];

export const rowsQuery = paginationQuery.extend({
  status: z.enum(ROW_STATUSES).optional().meta({ description: 'Only rows with this status.' }),
});

const countsSchema = z
  .strictObject({
    total: z.number().int().min(0),
    valid: z.number().int().min(0),
    warning: z.number().int().min(0),
    error: z.number().int().min(0).meta({ description: 'Rows with errors: never pushed.' }),
    pushed: z.number().int().min(0).meta({ description: 'Inventory items the push created.' }),
  })
  .meta({ id: 'IngestionCounts' });

const issueSchema = z.strictObject({
  field: z.string().meta({ description: 'The row field, or the unknown column, the issue is about.' }),
  severity: z.enum(['error', 'warning']),
  code: z.string().meta({ description: 'e.g. `MISSING_CARD_NAME`, `INVALID_PRICE`, `UNKNOWN_SET`, `UNKNOWN_COLUMN`.' }),
  message: z.string(),
});

const fieldsSchema = z
  .strictObject({
    cardName: z.string().nullable(),
    setName: z.string().nullable(),
    condition: z.string().nullable(),
    price: z.number().nullable().meta({ description: 'Decimal, at most 2 places, in `currency`.' }),
    currency: z.string().nullable(),
    quantity: z.number().int().nullable(),
    sku: z.string().nullable(),
    cardNumber: z.string().nullable(),
    notes: z.string().nullable(),
  })
  .meta({ description: 'Normalized values; null when missing or unusable.' });

const rowResultShape = {
  row: z.number().int().min(1).meta({ description: 'Row number in the session, from 1.' }),
  status: z.enum(ROW_STATUSES).meta({ description: '`error` rows are never pushed; `warning` rows are.' }),
  fields: fieldsSchema,
  changes: z.record(z.string(), z.array(z.string())).meta({ description: 'Field → what normalization changed.' }),
  confidence: z.number().min(0).max(1).meta({ description: 'The lowest confidence of the normalized fields.' }),
  issues: z.array(issueSchema),
};

export const ingestionRowResult = z.strictObject(rowResultShape).meta({ id: 'IngestionRowResult' });
export type IngestionRowResult = z.output<typeof ingestionRowResult>;

export const ingestionRowResponse = z
  .strictObject({
    ...rowResultShape,
    raw: z.record(z.string(), rawValue).meta({ description: 'The row as sent.' }),
    inventoryItemId: z.string().nullable().meta({ description: 'The item the push created from this row; null before the push and for skipped rows.' }),
    pushError: z.string().nullable().meta({ description: 'Why the push skipped a row without errors (rare).' }),
  })
  .meta({ id: 'IngestionRow' });
export type IngestionRowResponse = z.output<typeof ingestionRowResponse>;

export const ingestionRowListResponse = listResponseSchema(ingestionRowResponse).meta({ id: 'IngestionRowList' });

const pushSummaryShape = {
  pushed: z.number().int().min(0).meta({ description: 'Inventory items created.' }),
  skipped: z.number().int().min(0).meta({ description: 'Rows not pushed (rows with errors).' }),
  matchedBuyerRequests: z.number().int().min(0).meta({ description: 'Open buyer requests the new items matched.' }),
  skippedRows: z.array(z.number().int()).meta({ description: 'Numbers of the skipped rows.' }),
  rejections: z
    .array(z.strictObject({ row: z.number().int(), message: z.string() }))
    .meta({ description: 'Rows without errors that inventory still refused, and why (normally empty).' }),
  pushedAt: z.iso.datetime(),
};

export const ingestionSessionResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Ingestion session id (`ing_…`).' }),
    name: z.string().nullable(),
    source: z.string().nullable(),
    defaultCurrency: z.string(),
    status: z.enum(['open', 'pushed']).meta({ description: '`open` takes items; `pushed` is final.' }),
    counts: countsSchema,
    push: z.strictObject(pushSummaryShape).nullable().meta({ description: 'The push result; null while open.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'IngestionSession' });
export type IngestionSessionResponse = z.output<typeof ingestionSessionResponse>;

export const ingestionSessionListResponse = listResponseSchema(ingestionSessionResponse).meta({ id: 'IngestionSessionList' });

export const addedItemsResponse = z
  .strictObject({
    sessionId: z.string(),
    added: z.number().int().min(1).meta({ description: 'Rows added by this call.' }),
    rows: z.array(ingestionRowResult).meta({ description: 'The rows just added, in order.' }),
    counts: countsSchema.meta({ description: 'The whole session after this call.' }),
  })
  .meta({ id: 'AddedIngestionItems' });
export type AddedItemsResponse = z.output<typeof addedItemsResponse>;

export const pushResponse = z
  .strictObject({ sessionId: z.string(), status: z.literal('pushed'), ...pushSummaryShape })
  .meta({ id: 'IngestionPushResult' });
export type PushResponse = z.output<typeof pushResponse>;

export function countsOf(rows: readonly Pick<IntakeRow, 'status'>[] = [], pushed = 0): IngestionCounts {
  const counts: IngestionCounts = { total: rows.length, valid: 0, warning: 0, error: 0, pushed };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}

function fieldsOf({ fields: f }: Pick<IntakeRow, 'fields'>): IngestionRowResult['fields'] {
  return {
    cardName: f.cardName,
    setName: f.setName,
    condition: f.condition,
    price: f.priceMinor === null ? null : fromMinor(f.priceMinor),
    currency: f.currency,
    quantity: f.quantity,
    sku: f.sku,
    cardNumber: f.cardNumber,
    notes: f.notes,
  };
}

export function toRowResultResponse(row: IntakeRow): IngestionRowResult {
  return { row: row.row, status: row.status, fields: fieldsOf(row), changes: row.changes, confidence: row.confidence, issues: row.issues };
}

export function toRowResponse(doc: IngestionRowView): IngestionRowResponse {
  return {
    row: doc.row,
    status: doc.status,
    fields: fieldsOf(doc),
    changes: doc.changes,
    confidence: doc.confidence,
    issues: doc.issues,
    raw: doc.raw,
    inventoryItemId: doc.inventoryItemId,
    pushError: doc.pushError,
  };
}

export function toSessionResponse(doc: IngestionSessionDoc): IngestionSessionResponse {
  return {
    id: doc.id,
    name: doc.name,
    source: doc.source,
    defaultCurrency: doc.defaultCurrency,
    status: doc.status,
    counts: doc.counts,
    push: doc.push,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toPushResponse(pushed: IngestionPushed): PushResponse {
  return {
    sessionId: pushed.sessionId,
    status: 'pushed',
    pushed: pushed.pushed,
    skipped: pushed.skipped,
    matchedBuyerRequests: pushed.matchedBuyerRequests,
    skippedRows: pushed.skippedRows,
    rejections: pushed.rejections,
    pushedAt: pushed.pushedAt,
  };
}
