// Stored contract of intake sessions (stream `ingestion-ing_…`). INTERNAL events: never delivered
// by webhooks; the public effect of a push is the `inventory.created` events it appends.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

import { inventoryMatchFields } from '../inventory/inventory.events';

export const INGESTION_EVENT_TYPES = ['ingestion.session_created', 'ingestion.rows_added', 'ingestion.pushed'] as const;

export const ROW_STATUSES = ['valid', 'warning', 'error'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** A raw row exactly as the client sent it (a CSV record has string values only). */
export const rawValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type RawValue = z.infer<typeof rawValue>;
export type RawRow = Record<string, RawValue>;

function isRawRow(value: unknown): value is RawRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const v of Object.values(value)) {
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return false;
  }
  return true;
}

/** A raw row, checked by hand (a zod record of unions costs far more, paid for every row of every read). */
export const storedRawRow = z.custom<RawRow>(isRawRow, 'a raw row: an object of strings, numbers, booleans and nulls');

export const ROW_FIELDS = ['cardName', 'setName', 'condition', 'price', 'currency', 'quantity', 'sku', 'cardNumber', 'notes'] as const;
export type RowField = (typeof ROW_FIELDS)[number];

/** Field → what normalization changed; only the fields that changed (an object, not a record: far cheaper to check). */
const changeList = z.array(z.string()).optional();
export const rowChanges = z.object({
  cardName: changeList,
  setName: changeList,
  condition: changeList,
  price: changeList,
  currency: changeList,
  quantity: changeList,
  sku: changeList,
  cardNumber: changeList,
  notes: changeList,
});
export type RowChanges = z.infer<typeof rowChanges>;

export const rowIssue = z.object({
  /** A row field, or the name of an unknown column. */
  field: z.string(),
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
});
export type RowIssue = z.infer<typeof rowIssue>;

/** Normalized display values; null when the row did not give the field (or gave nothing usable). */
export const rowFields = z.object({
  cardName: z.string().nullable(),
  setName: z.string().nullable(),
  condition: z.string().nullable(),
  priceMinor: z.number().int().nullable(),
  currency: z.string().nullable(),
  quantity: z.number().int().nullable(),
  sku: z.string().nullable(),
  cardNumber: z.string().nullable(),
  notes: z.string().nullable(),
});
export type RowFields = z.infer<typeof rowFields>;

/** One normalized row, before the session numbers it. */
export const normalizedRow = z.object({
  raw: storedRawRow,
  status: z.enum(ROW_STATUSES),
  fields: rowFields,
  /** The caller's text for the catalogue-normalized fields (inventory keeps it as `input`). */
  input: z.object({ cardName: z.string(), setName: z.string(), condition: z.string() }),
  /** Matching identity from the catalogue; null when the row has no card name. */
  match: inventoryMatchFields.nullable(),
  /** Only the fields that changed: field → what normalization did. */
  changes: rowChanges,
  /** 0..1, the lowest confidence of the normalized fields. */
  confidence: z.number(),
  issues: z.array(rowIssue),
});
export type NormalizedRow = z.infer<typeof normalizedRow>;

/** A normalized row with its 1-based number in the session (numbers run on across calls). */
export const intakeRow = normalizedRow.extend({ row: z.number().int().min(1) });
export type IntakeRow = z.infer<typeof intakeRow>;

// ---- a hand-written check of stored rows ----
// The same rules as `intakeRow` (a unit test holds them together), at a fraction of zod's cost,
// which every read of a 10,000-row session (each add, the push, the projection) would pay for
// every row.

type Fields = Record<string, unknown>;

function asObject(value: unknown): Fields | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : null;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => Number.isInteger(v);
const nullable = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);
const STATUSES: ReadonlySet<unknown> = new Set(ROW_STATUSES);
const SEVERITIES: ReadonlySet<unknown> = new Set(['error', 'warning']);

function hasShape(value: unknown, shape: Readonly<Record<string, (v: unknown) => boolean>>): boolean {
  const o = asObject(value);
  if (!o) return false;
  for (const key in shape) if (!shape[key](o[key])) return false;
  return true;
}

const FIELDS_SHAPE = {
  cardName: nullable(isString),
  setName: nullable(isString),
  condition: nullable(isString),
  priceMinor: nullable(isInt),
  currency: nullable(isString),
  quantity: nullable(isInt),
  sku: nullable(isString),
  cardNumber: nullable(isString),
  notes: nullable(isString),
};
const INPUT_SHAPE = { cardName: isString, setName: isString, condition: isString };
const MATCH_SHAPE = {
  cardKey: isString,
  setKey: isString,
  matchKey: isString,
  conditionClass: isString,
  conditionScore: (v: unknown) => typeof v === 'number',
  gradingCompany: nullable(isString),
};
const ISSUE_SHAPE = { field: isString, severity: (v: unknown) => SEVERITIES.has(v), code: isString, message: isString };
const isStrings = (v: unknown) => Array.isArray(v) && v.every(isString);
const CHANGES_SHAPE = Object.fromEntries(ROW_FIELDS.map((f) => [f, (v: unknown) => v === undefined || isStrings(v)]));

const ROW_SHAPE = {
  row: (v: unknown) => isInt(v) && v >= 1,
  raw: isRawRow,
  status: (v: unknown) => STATUSES.has(v),
  fields: (v: unknown) => hasShape(v, FIELDS_SHAPE),
  input: (v: unknown) => hasShape(v, INPUT_SHAPE),
  match: (v: unknown) => v === null || hasShape(v, MATCH_SHAPE),
  changes: (v: unknown) => hasShape(v, CHANGES_SHAPE),
  confidence: (v: unknown) => typeof v === 'number',
  issues: (v: unknown) => Array.isArray(v) && v.every((i) => hasShape(i, ISSUE_SHAPE)),
};

export function isIntakeRow(value: unknown): value is IntakeRow {
  return hasShape(value, ROW_SHAPE);
}

/** Stored rows, checked with `isIntakeRow`. */
export const storedIntakeRow = z.custom<IntakeRow>(isIntakeRow, 'a stored intake row');

export const ingestionSessionCreated = z.object({
  sessionId: z.string(),
  workspaceId: z.string(),
  name: z.string().nullable(),
  source: z.string().nullable(),
  /** Currency of rows that name none. */
  defaultCurrency: z.string(),
  createdAt: z.string(),
});
export type IngestionSessionCreated = z.infer<typeof ingestionSessionCreated>;

/** One add call appends one or more of these (at most ROWS_PER_EVENT rows each, numbered in order). */
export const ingestionRowsAdded = z.object({
  sessionId: z.string(),
  rows: z.array(storedIntakeRow),
  addedAt: z.string(),
});
export type IngestionRowsAdded = z.infer<typeof ingestionRowsAdded>;

export const pushRejection = z.object({ row: z.number().int(), message: z.string() });

export const ingestionPushed = z.object({
  sessionId: z.string(),
  /** Inventory items created (one per pushed row). */
  pushed: z.number().int(),
  /** Rows not pushed: rows with errors, and rows inventory refused (`rejections`). */
  skipped: z.number().int(),
  matchedBuyerRequests: z.number().int(),
  /** Pushed rows and their items, in row order (same length). */
  pushedRows: z.array(z.number().int()),
  inventoryItemIds: z.array(z.string()),
  skippedRows: z.array(z.number().int()),
  /** Valid or warning rows the inventory decider refused (normally none). */
  rejections: z.array(pushRejection),
  /** Log position of the last inventory event of the push (0 when nothing was pushed). */
  lastPosition: z.number().int(),
  pushedAt: z.string(),
});
export type IngestionPushed = z.infer<typeof ingestionPushed>;

export type IngestionEvent =
  | { type: 'ingestion.session_created'; data: IngestionSessionCreated }
  | { type: 'ingestion.rows_added'; data: IngestionRowsAdded }
  | { type: 'ingestion.pushed'; data: IngestionPushed };

export const parseIngestionEvent = parseOnce((event: RecordedEvent): IngestionEvent => {
  switch (event.type) {
    case 'ingestion.session_created':
      return { type: event.type, data: ingestionSessionCreated.parse(event.data) };
    case 'ingestion.rows_added':
      return { type: event.type, data: ingestionRowsAdded.parse(event.data) };
    case 'ingestion.pushed':
      return { type: event.type, data: ingestionPushed.parse(event.data) };
    default:
      throw new Error(`Not an ingestion event: ${event.type}`);
  }
});

export const ingestionStream = (id: string) => `ingestion-${id}`;
