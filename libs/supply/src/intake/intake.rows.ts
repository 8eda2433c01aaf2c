// Real-time normalization of one raw intake row: flexible column names, catalogue normalization of
// name / set / condition, price and currency parsing, and per-field issues. Pure.
//
// Severity rules: a row with an error is never pushed; warnings are pushed as normalized.
// - errors: no card name; no set or no condition (an inventory item needs all three, as the
//   inventory API does, and matching compares them); no price or one that does not parse (or is
//   negative / absurdly large); a quantity that is not a whole number from 1 to 100,000; a currency
//   that is not an ISO code, or that contradicts the price's own symbol (`€12` with currency USD);
//   a value over its length limit (the inventory API's limits).
// - warnings: unknown columns (their values are ignored), two columns for one field, an
//   unrecognised card name, set or condition, anything else the catalogue flags. Unrecognised
//   values are kept verbatim (the catalogue marks them unknown), so the item is still listed.
import { type Normalization, normalizeListing, normalizePrice, type Price } from '@app/catalog';
import { MAX_AMOUNT } from '@app/platform';

import type { NormalizedRow, RawRow, RawValue, RowChanges, RowField, RowFields, RowIssue } from './intake.events';

export interface RowContext {
  /** Currency of rows that name none (neither a symbol in the price nor a currency column). */
  defaultCurrency: string;
}

/** Column aliases, folded (lower case, letters and digits only): `Card Name`, `card_name` → `cardname`. */
const ALIASES: Readonly<Record<RowField, readonly string[]>> = {
  cardName: ['cardname', 'card', 'name'],
  setName: ['setname', 'set', 'expansion'],
  condition: ['condition', 'cond', 'grade'],
  price: ['price', 'amount'],
  currency: ['currency'],
  quantity: ['quantity', 'qty', 'count'],
  sku: ['sku'],
  cardNumber: ['cardnumber', 'number', 'no'],
  notes: ['notes'],
};

const FIELD_BY_ALIAS = new Map<string, RowField>(
  Object.entries(ALIASES).flatMap(([field, aliases]) => aliases.map((alias): [string, RowField] => [alias, field as RowField])),
);

const MAX_LENGTH: Readonly<Partial<Record<RowField, number>>> = {
  cardName: 200,
  setName: 200,
  condition: 60,
  sku: 100,
  cardNumber: 40,
  notes: 2000,
};

/** The inventory API's bound on an item's quantity. */
export const MAX_ROW_QUANTITY = 100_000;

const CURRENCY_SYMBOLS: ReadonlyMap<string, string> = new Map([
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
]);

export function foldColumn(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The row field a column feeds, or null for an unknown column. */
export function fieldOfColumn(name: string): RowField | null {
  return FIELD_BY_ALIAS.get(foldColumn(name)) ?? null;
}

function text(value: RawValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

class RowBuilder {
  readonly issues: RowIssue[] = [];
  readonly changes: RowChanges = {};
  private readonly confidences: number[] = [];

  error(field: string, code: string, message: string): void {
    this.issues.push({ field, severity: 'error', code, message });
  }

  warn(field: string, code: string, message: string): void {
    this.issues.push({ field, severity: 'warning', code, message });
  }

  changed(field: RowField, ...what: string[]): void {
    if (what.length > 0) this.changes[field] = [...(this.changes[field] ?? []), ...what];
  }

  confidence(value: number): void {
    this.confidences.push(value);
  }

  /** A catalogue normalization's changes, confidence and warnings, under `field`. */
  absorb(field: RowField, n: Normalization<unknown>, unknownCode: string, unknownMessage: string): void {
    this.changed(field, ...n.changes);
    this.confidence(n.confidence);
    if (!n.recognized) this.warn(field, unknownCode, n.warnings[0] ?? unknownMessage);
    const rest = n.recognized ? n.warnings : n.warnings.slice(1);
    for (const warning of rest) this.warn(field, 'CHECK_VALUE', warning);
  }

  get minConfidence(): number {
    return this.confidences.length === 0 ? 0 : Math.min(...this.confidences);
  }
}

/** Picks each field's value from the row's columns; reports unknown and duplicate columns. */
function columns(raw: RawRow, b: RowBuilder): Partial<Record<RowField, RawValue>> {
  const values: Partial<Record<RowField, RawValue>> = {};
  const from: Partial<Record<RowField, string>> = {};
  for (const [column, value] of Object.entries(raw)) {
    const field = fieldOfColumn(column);
    // A blank value says nothing: it neither feeds a field nor counts as a second source.
    if (!isGiven(value)) continue;
    if (field === null) {
      b.warn(column, 'UNKNOWN_COLUMN', `Unknown column "${column}": its value is ignored`);
      continue;
    }
    const first = from[field];
    if (first === undefined) {
      values[field] = value;
      from[field] = column;
    } else if (text(values[field]) !== text(value)) {
      b.warn(column, 'DUPLICATE_COLUMN', `Columns "${first}" and "${column}" both give ${field}; used "${first}"`);
    }
  }
  return values;
}

function isGiven(value: RawValue | undefined): boolean {
  return text(value) !== '';
}

function checkLength(field: RowField, value: string, b: RowBuilder): void {
  const max = MAX_LENGTH[field];
  if (max !== undefined && value.length > max) b.error(field, 'TOO_LONG', `${field} is longer than ${max} characters`);
}

function optionalText(field: RowField, value: RawValue | undefined, b: RowBuilder): string | null {
  const t = text(value);
  checkLength(field, t, b);
  return t === '' ? null : t;
}

function price(value: RawValue | undefined, b: RowBuilder): Price | null {
  const refuse = (code: string, message: string): null => {
    b.error('price', code, message);
    b.confidence(0);
    return null;
  };
  if (!isGiven(value)) return refuse('MISSING_PRICE', 'A price is required');
  const n = normalizePrice(typeof value === 'number' ? value : text(value));
  if (n.value === null) return refuse('INVALID_PRICE', n.warnings[0] ?? `"${text(value)}" is not a price`);
  if (n.value.amountMinor < 0 || n.value.amountMinor > MAX_AMOUNT * 100) {
    return refuse('INVALID_PRICE', `A price must be between 0 and ${MAX_AMOUNT}`);
  }
  b.changed('price', ...n.changes);
  b.confidence(n.confidence);
  for (const warning of n.warnings) b.warn('price', 'CHECK_VALUE', warning);
  return n.value;
}

function currency(value: RawValue | undefined, fromPrice: string | null, context: RowContext, b: RowBuilder): string | null {
  const given = text(value);
  let column: string | null = null;
  if (given !== '') {
    column = CURRENCY_SYMBOLS.get(given) ?? (/^[A-Za-z]{3}$/.test(given) ? given.toUpperCase() : null);
    if (column === null) {
      b.error('currency', 'INVALID_CURRENCY', `"${given}" is not an ISO 4217 currency code such as USD`);
      return null;
    }
    if (column !== given) b.changed('currency', `"${given}" read as ${column}`);
  }
  if (column !== null && fromPrice !== null && column !== fromPrice) {
    b.error('currency', 'CURRENCY_CONFLICT', `The price is in ${fromPrice} but the currency column says ${column}`);
    return null;
  }
  if (column !== null) return column;
  if (fromPrice !== null) {
    b.changed('currency', `${fromPrice} taken from the price`);
    return fromPrice;
  }
  b.changed('currency', `none given: the session default ${context.defaultCurrency}`);
  return context.defaultCurrency;
}

function quantity(value: RawValue | undefined, b: RowBuilder): number | null {
  if (!isGiven(value)) {
    b.changed('quantity', 'none given: 1');
    return 1;
  }
  const t = text(value);
  const n = typeof value === 'number' ? value : /^\+?\d+(\.0*)?$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_ROW_QUANTITY) {
    b.error('quantity', 'INVALID_QUANTITY', `Quantity must be a whole number from 1 to ${MAX_ROW_QUANTITY}, not "${t}"`);
    return null;
  }
  return n;
}

type ListingField = 'cardName' | 'setName' | 'condition';

const LISTING_RULES: Readonly<Record<ListingField, { missing: string; unknown: string; label: string }>> = {
  cardName: { missing: 'MISSING_CARD_NAME', unknown: 'UNKNOWN_CARD_NAME', label: 'card name' },
  setName: { missing: 'MISSING_SET_NAME', unknown: 'UNKNOWN_SET', label: 'set name' },
  condition: { missing: 'MISSING_CONDITION', unknown: 'UNKNOWN_CONDITION', label: 'condition' },
};

/** A catalogue-normalized field: required; unrecognised values are kept (as `display`) with a warning. */
function listingField(field: ListingField, given: string, n: Normalization<unknown>, display: string, b: RowBuilder): string | null {
  const rule = LISTING_RULES[field];
  if (given === '') {
    b.error(field, rule.missing, `A ${rule.label} is required`);
    b.confidence(0);
    return null;
  }
  checkLength(field, given, b);
  b.absorb(field, n, rule.unknown, `The ${rule.label} "${given}" is not recognised; kept as given`);
  return display;
}

export function normalizeRow(raw: RawRow, context: RowContext): NormalizedRow {
  const b = new RowBuilder();
  const cols = columns(raw, b);
  const input = { cardName: text(cols.cardName), setName: text(cols.setName), condition: text(cols.condition) };
  const listing = normalizeListing(input);

  const cardName = listingField('cardName', input.cardName, listing.cardName, listing.cardName.value.name, b);
  const setName = listingField('setName', input.setName, listing.setName, listing.setName.value.name, b);
  const condition = listingField('condition', input.condition, listing.condition, listing.condition.value.label, b);
  const parsedPrice = price(cols.price, b);
  const fields: RowFields = {
    cardName,
    setName,
    condition,
    priceMinor: parsedPrice?.amountMinor ?? null,
    currency: currency(cols.currency, parsedPrice?.currency ?? null, context, b),
    quantity: quantity(cols.quantity, b),
    sku: optionalText('sku', cols.sku, b),
    cardNumber: optionalText('cardNumber', cols.cardNumber, b),
    notes: optionalText('notes', cols.notes, b),
  };
  const status = b.issues.some((i) => i.severity === 'error') ? 'error' : b.issues.length > 0 ? 'warning' : 'valid';
  return {
    raw,
    status,
    fields,
    input,
    match: cardName === null ? null : listing.match,
    changes: b.changes,
    confidence: b.minConfidence,
    issues: b.issues,
  };
}
