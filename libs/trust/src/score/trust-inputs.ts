// The inputs of a seller's trust score: one row per trade of the seller's, folded from trading's
// stored events, and — once a trade has an outcome (completed, or cancelled) — the row the score
// reads. A row's outcome is final: nothing after it (a settle) changes the row, so the inputs as of
// any log position are the rows whose outcome lies at or before it — which is what lets the audit
// recompute a credential's inputs from the log long after it was issued.
// The inputs document is what the credential's `inputsHash` covers: the rows with a pseudonymous
// trade reference (no trade id, no buyer), dates and amounts, in RFC 8785 (JCS) form. Pure.
import { createHash } from 'node:crypto';

import canonicalize from 'canonicalize';

import type { TradeEvent } from '@app/trading';

export const TRUST_FORMULA = 'trust-v1';

export type TradeOutcome = 'completed' | 'cancelled';
export type DisputeState = 'open' | 'release' | 'refund';

/** One trade as trust reads it (the read model's document, less its id fields). */
export interface TradeOutcomeRow {
  tradeId: string;
  workspaceId: string;
  initiatedAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  closedAt: string | null;
  outcome: TradeOutcome | null;
  cancelledBy: 'seller' | 'buyer' | null;
  dispute: DisputeState | null;
  amountMinor: number;
  currency: string;
  /** Log position of the event that gave the trade its outcome; null while it has none. */
  outcomePosition: number | null;
}

/** The next row from the current one (null when absent) and one trade event. */
export function foldTradeRow(row: TradeOutcomeRow | null, event: TradeEvent, at: { workspaceId: string; position: number }): TradeOutcomeRow | null {
  if (event.type === 'trade.initiated') {
    if (row) return row;
    const d = event.data;
    return {
      tradeId: d.tradeId,
      workspaceId: at.workspaceId,
      initiatedAt: d.initiatedAt,
      paidAt: null,
      shippedAt: null,
      closedAt: null,
      outcome: null,
      cancelledBy: null,
      dispute: null,
      amountMinor: d.amountMinor,
      currency: d.currency,
      outcomePosition: null,
    };
  }
  if (event.type !== 'trade.status_changed' || row === null || row.outcome !== null) return row;
  const d = event.data;
  switch (d.to) {
    case 'paid':
      return { ...row, paidAt: d.at };
    case 'shipped':
      return { ...row, shippedAt: d.at };
    case 'disputed':
      return { ...row, dispute: 'open' };
    case 'completed':
      return { ...row, outcome: 'completed', closedAt: d.at, dispute: d.from === 'disputed' ? 'release' : row.dispute, outcomePosition: at.position };
    case 'cancelled':
      return {
        ...row,
        outcome: 'cancelled',
        closedAt: d.at,
        cancelledBy: d.cancelledBy ?? null,
        dispute: d.from === 'disputed' ? 'refund' : row.dispute,
        outcomePosition: at.position,
      };
    default:
      return row;
  }
}

/** A row of the inputs document: a trade outcome without the trade's id or its buyer. */
export interface InputRow {
  ref: string;
  initiatedAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  closedAt: string;
  outcome: TradeOutcome;
  cancelledBy: 'seller' | 'buyer' | null;
  dispute: 'release' | 'refund' | null;
  amountMinor: number;
  currency: string;
}

export interface InputsDocument {
  formula: typeof TRUST_FORMULA;
  /** The seller's workspace id. */
  seller: string;
  /** The instant the score is computed at (the credential's issue time): tenure counts to it. */
  asOf: string;
  trades: InputRow[];
}

/** The inputs document from the seller's rows with an outcome at or before `upTo` (a log position). */
export function inputsDocument(
  rows: readonly TradeOutcomeRow[],
  options: { seller: string; asOf: string; upTo: number; refOf: (tradeId: string) => string },
): InputsDocument {
  const trades: InputRow[] = [];
  for (const row of rows) {
    if (row.outcomePosition === null || row.outcomePosition > options.upTo) continue;
    const input = inputRowOf(row, options.refOf);
    if (input !== null) trades.push(input);
  }
  trades.sort((a, b) => (a.closedAt < b.closedAt ? -1 : a.closedAt > b.closedAt ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  return { formula: TRUST_FORMULA, seller: options.seller, asOf: options.asOf, trades };
}

/** A row of the inputs document from an outcome row; null for a row without an outcome. */
export function inputRowOf(row: TradeOutcomeRow, refOf: (tradeId: string) => string): InputRow | null {
  if (row.outcome === null || row.closedAt === null || row.outcomePosition === null) return null;
  return {
    ref: refOf(row.tradeId),
    initiatedAt: row.initiatedAt,
    paidAt: row.paidAt,
    shippedAt: row.shippedAt,
    closedAt: row.closedAt,
    outcome: row.outcome,
    cancelledBy: row.cancelledBy,
    dispute: row.dispute === 'open' ? null : row.dispute,
    amountMinor: row.amountMinor,
    currency: row.currency,
  };
}

/** The RFC 8785 (JSON Canonicalization Scheme) serialization. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('nothing to canonicalize');
  return text;
}

/**
 * The value with every object's keys in RFC 8785 order, nested objects too (arrays keep theirs), so
 * that `JSON.stringify` of it is its canonical text. (A key that reads as an array index would come
 * first whatever the order: JavaScript objects put those first. The credential has none.)
 */
export function inCanonicalOrder<T>(value: T): T {
  const ordered: T = JSON.parse(canonicalJson(value));
  return ordered;
}

/** `sha256:<hex>` of a canonical text's UTF-8 bytes (given as the text, or as the bytes). */
export function sha256Of(text: string | Uint8Array): string {
  const hash = createHash('sha256');
  if (typeof text === 'string') hash.update(text, 'utf8');
  else hash.update(text);
  return `sha256:${hash.digest('hex')}`;
}

/** The highest outcome position among the rows (what the inputs reach up to); -1 for none. */
export function lastOutcomePosition(rows: readonly TradeOutcomeRow[]): number {
  let last = -1;
  for (const row of rows) if (row.outcomePosition !== null && row.outcomePosition > last) last = row.outcomePosition;
  return last;
}
