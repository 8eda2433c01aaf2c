// Examples of the intake routes' answers, for the OpenAPI document (each is checked against its
// schema by the OpenAPI tests).
import type { AddedItemsResponse, IngestionRowResponse, IngestionRowResult, IngestionSessionResponse, PushResponse } from './intake.schemas';

export const sessionExample: IngestionSessionResponse = {
  id: 'ing_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  name: 'Spring card show buylist',
  source: 'csv-export',
  defaultCurrency: 'USD',
  status: 'open',
  counts: { total: 0, valid: 0, warning: 0, error: 0, pushed: 0 },
  push: null,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
};

const charizardRow: IngestionRowResult = {
  row: 1,
  status: 'valid',
  fields: {
    cardName: 'Charizard',
    setName: 'Base',
    condition: 'Near Mint',
    price: 450.5,
    currency: 'USD',
    quantity: 1,
    sku: null,
    cardNumber: null,
    notes: null,
  },
  changes: {
    cardName: ['spelled "charizard" as the catalogue does: "Charizard"'],
    setName: ['resolved set alias "Base Set" to "Base"'],
    condition: ['expanded "NM" to "Near Mint"'],
    price: ['read "$" as USD'],
    currency: ['USD taken from the price'],
  },
  confidence: 0.9,
  issues: [],
};

export const rowExample: IngestionRowResponse = {
  ...charizardRow,
  raw: { 'Card Name': 'charizard', Set: 'Base Set', Condition: 'NM', Price: '$450.50', Qty: 1 },
  inventoryItemId: null,
  pushError: null,
};

export const addedItemsExample: AddedItemsResponse = {
  sessionId: sessionExample.id,
  added: 3,
  rows: [
    charizardRow,
    {
      row: 2,
      status: 'warning',
      fields: {
        cardName: 'Blastoise',
        setName: 'Base',
        condition: 'PSA 9',
        price: 325,
        currency: 'USD',
        quantity: 1,
        sku: 'B-002',
        cardNumber: null,
        notes: null,
      },
      changes: {
        setName: ['resolved set code "BS" to "Base"'],
        currency: ['none given: the session default USD'],
        quantity: ['none given: 1'],
      },
      confidence: 0.95,
      issues: [{ field: 'rarity', severity: 'warning', code: 'UNKNOWN_COLUMN', message: 'Unknown column "rarity": its value is ignored' }],
    },
    {
      row: 3,
      status: 'error',
      fields: {
        cardName: 'Pikachu',
        setName: 'Jungle',
        condition: 'Lightly Played',
        price: null,
        currency: 'USD',
        quantity: 1,
        sku: null,
        cardNumber: null,
        notes: null,
      },
      changes: {
        condition: ['expanded "LP" to "Lightly Played"'],
        currency: ['none given: the session default USD'],
        quantity: ['none given: 1'],
      },
      confidence: 0,
      issues: [{ field: 'price', severity: 'error', code: 'INVALID_PRICE', message: 'unparseable price "twelve"' }],
    },
  ],
  counts: { total: 3, valid: 1, warning: 1, error: 1, pushed: 0 },
};

export const pushExample: PushResponse = {
  sessionId: sessionExample.id,
  status: 'pushed',
  pushed: 2,
  skipped: 1,
  matchedBuyerRequests: 1,
  skippedRows: [3],
  rejections: [],
  pushedAt: '2025-11-22T15:09:30.000Z',
};
