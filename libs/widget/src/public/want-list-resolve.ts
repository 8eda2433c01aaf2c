// A pasted want list's lines resolved against the catalogue, as the widget shows them before
// sending — pure: each line read (want-list-parse.ts), then normalized the way a buyer request is
// (normalizeWant: the set first, a card name one letter or a space off a card of that set
// corrected, the condition on the project's scale), with what was changed and what to look at.
import { normalizeCondition, normalizeWant, RAW_GRADES } from '@app/catalog';
import { fromMinor } from '@app/platform';

import { MAX_WANT_PRICE, priceTooHighMessage } from './money-text';
import { isWantLineError, parseWantList, type WantLineErrorCode } from './want-list-parse';

export type ResolvedWantLine =
  | {
      line: number;
      text: string;
      status: 'ok';
      quantity: number;
      cardName: string;
      /** null: any printing. */
      setName: string | null;
      /** null: any condition. */
      condition: string | null;
      /** null: no price limit. */
      maxPrice: number | null;
      /** What the catalogue changed (a corrected card name, a set code read as its set…). */
      changes: string[];
      /** What to look at (an unknown set kept as typed…). */
      warnings: string[];
      error: null;
    }
  | { line: number; text: string; status: 'error'; error: { code: WantLineErrorCode | 'UNKNOWN_CONDITION' | 'OTHER_CURRENCY' | 'PRICE_TOO_HIGH'; message: string } };

/** The raw scale as the widget offers it, and graded cards. */
export const WIDGET_CONDITION_HINT = `${RAW_GRADES.map((g) => `${g.label} (${g.code})`).join(', ')}, or a grade like PSA 9`;

/** Every line of `text` (at most MAX_WANT_LINES), resolved; prices are in `currency`. */
export function resolveWantList(text: string, currency: string): { lines: ResolvedWantLine[]; extraLines: number } {
  const { lines, extraLines } = parseWantList(text);
  return {
    extraLines,
    lines: lines.map((read): ResolvedWantLine => {
      if (isWantLineError(read)) return { line: read.line, text: read.text, status: 'error', error: read.error };
      const { line, text: typed } = read;
      if (read.currency !== null && read.currency !== currency) {
        return { line, text: typed, status: 'error', error: { code: 'OTHER_CURRENCY', message: `Prices are in ${currency} here, not ${read.currency}` } };
      }
      if (read.maxPriceMinor !== null && fromMinor(read.maxPriceMinor) > MAX_WANT_PRICE) {
        return { line, text: typed, status: 'error', error: { code: 'PRICE_TOO_HIGH', message: priceTooHighMessage(currency) } };
      }
      if (read.condition !== null && !normalizeCondition(read.condition).recognized) {
        return { line, text: typed, status: 'error', error: { code: 'UNKNOWN_CONDITION', message: `Unknown condition "${read.condition}": choose ${WIDGET_CONDITION_HINT}` } };
      }
      const want = normalizeWant(read);
      const parts = [want.cardName, want.setName, want.condition].filter((n) => n !== null);
      return {
        line,
        text: typed,
        status: 'ok',
        quantity: read.quantity,
        cardName: want.cardName.value.name,
        setName: want.setName ? want.setName.value.name : null,
        condition: want.condition ? want.condition.value.label : null,
        maxPrice: read.maxPriceMinor === null ? null : fromMinor(read.maxPriceMinor),
        changes: parts.flatMap((n) => n.changes),
        warnings: parts.flatMap((n) => n.warnings),
        error: null,
      };
    }),
  };
}
