// Shapes and calls of the inventory e2e suites: an item as the API answers it, its error body,
// a create body as a seller might type it, and create / patch on a running app.
import type { RunningApp } from './app-process';
import { http } from './http';

export interface ErrorBody {
  code: string;
  message: string;
  details?: { issues?: Array<{ path: string; message: string }>; requiredScope?: string; [field: string]: unknown };
}

export interface FieldNormalization {
  input: string;
  changes: string[];
  confidence: number;
  warnings: string[];
  recognized: boolean;
}

export interface Item {
  id: string;
  cardName: string;
  setName: string;
  condition: string;
  price: number;
  currency: string;
  quantity: number;
  availableQuantity: number;
  reservedQuantity: number;
  soldQuantity: number;
  status: string;
  sku: string | null;
  cardNumber: string | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  normalization?: Partial<Record<'cardName' | 'setName' | 'condition', FieldNormalization>>;
}

export interface List {
  data: Item[];
  nextCursor: string | null;
}

export const messy = { cardName: 'charizard', setName: 'base set', condition: 'nm', price: 450.5 };

/** create and patch as `key()` (or `as`) on the app `app()` returns. */
export function inventoryCalls(app: () => RunningApp, key: () => string) {
  const create = (body: Record<string, unknown>, as = key()) => http<Item>(app().url, 'POST', '/api/v1/inventory', { key: as, body });
  const patch = (id: string, body: Record<string, unknown>, as = key()) =>
    http<Item & ErrorBody>(app().url, 'PATCH', `/api/v1/inventory/${id}`, { key: as, body });
  return { create, patch };
}
