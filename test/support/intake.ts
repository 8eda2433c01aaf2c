// Shapes, rows and calls of the intake e2e suites: sessions, rows and pushes as the API answers them,
// sample JSON and CSV rows, and post / get / newSession on a running app.
import type { RunningApp } from './app-process';
import { http } from './http';

export interface ErrorBody {
  code: string;
  message: string;
  details?: { issues?: Array<{ path: string; message: string }>; requiredScope?: string };
}

export interface Counts {
  total: number;
  valid: number;
  warning: number;
  error: number;
  pushed: number;
}

export interface Session {
  id: string;
  status: 'open' | 'pushed';
  counts: Counts;
  defaultCurrency: string;
  push: null | { pushed: number; skipped: number; matchedBuyerRequests: number; skippedRows: number[] };
}

export interface RowResult {
  row: number;
  status: 'valid' | 'warning' | 'error';
  fields: { cardName: string | null; setName: string | null; condition: string | null; price: number | null; currency: string | null; quantity: number | null };
  changes: Record<string, string[]>;
  issues: Array<{ field: string; severity: string; code: string }>;
}

export interface Row extends RowResult {
  raw: Record<string, unknown>;
  inventoryItemId: string | null;
}

export interface Added {
  sessionId: string;
  added: number;
  rows: RowResult[];
  counts: Counts;
}

export interface Pushed {
  sessionId: string;
  status: 'pushed';
  pushed: number;
  skipped: number;
  matchedBuyerRequests: number;
  skippedRows: number[];
  pushedAt: string;
}

export interface InventoryItem {
  id: string;
  cardName: string;
  setName: string;
  condition: string;
  price: number;
  currency: string;
  quantity: number;
}

export const SESSIONS = '/api/v1/ingestion/sessions';

export const jsonRows = [
  { 'Card Name': 'charizard', Set: 'Base Set', Condition: 'NM', Price: '$450.50', Qty: 2 },
  { card_name: 'Blastoise', set: 'BS', cond: 'PSA 9', price: 325, sku: 'B-002', rarity: 'Rare Holo' },
  { name: 'Pikachu', set: 'Jungle', condition: 'LP', price: 'twelve' },
];

// Quoted fields, an escaped quote, CRLF, a BOM; rows 4..7 of the session.
export const csv =
  '\uFEFFcard,set,condition,price,currency,qty,notes\r\n' +
  'Venusaur,Base,Near Mint,"$1,234.50",,1,"first ""shadowless"" print"\r\n' +
  'Mewtwo,Jungel,lightly played,€40,,1,\r\n' +
  ',Base,NM,10,,1,no name\r\n' +
  'Alakazam,Base,NM,€12,USD,1,conflict\r\n';

/** post, get and newSession as `key()` (or the key given) on the app `app()` returns. */
export function sessionCalls(app: () => RunningApp, key: () => string) {
  const post = <T>(path: string, body?: unknown, options: { key?: string; csv?: string; headers?: Record<string, string> } = {}) =>
    http<T>(app().url, 'POST', path, {
      key: options.key ?? key(),
      ...(options.csv !== undefined
        ? { rawBody: options.csv, headers: { 'content-type': 'text/csv', ...options.headers } }
        : { body, headers: options.headers }),
    });
  const get = <T>(path: string, k = key()) => http<T>(app().url, 'GET', path, { key: k });

  async function newSession(body?: unknown, k = key()): Promise<Session> {
    const res = await post<Session>(SESSIONS, body, { key: k });
    expect(res.status).toBe(201);
    return res.body;
  }

  return { post, get, newSession };
}
