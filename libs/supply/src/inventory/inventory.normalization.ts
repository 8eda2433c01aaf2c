// Normalization of what a seller types (card name, set, condition) for inventory writes, with
// @app/catalog: display forms, matching identity and a per-field report for the answer.
import { type CardName, type Condition, type Normalization, normalizeListing, type SetRef } from '@app/catalog';

import type { InventoryItemChanges, InventoryState } from './inventory.decider';
import type { InventoryStatus } from './inventory.events';

/** The three free-text fields a seller types and normalization rewrites. */
export interface ListingText {
  cardName: string;
  setName: string;
  condition: string;
}

/** What normalization did to each field it ran on, shown to the seller. */
export interface FieldNormalization {
  input: string;
  changes: string[];
  confidence: number;
  warnings: string[];
  recognized: boolean;
}

export type ListingNormalization = Record<keyof ListingText, FieldNormalization>;

/** A new item as a client describes it: raw listing text; the id and the time are the server's. */
export interface NewInventoryItem extends ListingText {
  priceMinor: number;
  currency: string;
  quantity: number;
  status: InventoryStatus;
  sku: string | null;
  cardNumber: string | null;
  notes: string | null;
}

/** A client's change to an item: raw listing text for the names/condition it changes. */
export type InventoryItemPatch = Partial<NewInventoryItem>;

const LISTING_FIELDS = ['cardName', 'setName', 'condition'] as const satisfies ReadonlyArray<keyof ListingText>;

function report(n: Normalization<CardName | SetRef | Condition>): FieldNormalization {
  return { input: n.input, changes: n.changes, confidence: n.confidence, warnings: n.warnings, recognized: n.recognized };
}

/** Display forms, matching identity and the per-field report of one listing. */
export function normalizeListingText(text: ListingText) {
  const n = normalizeListing(text);
  return {
    display: { cardName: n.cardName.value.name, setName: n.setName.value.name, condition: n.condition.value.label },
    match: { ...n.match },
    report: { cardName: report(n.cardName), setName: report(n.setName), condition: report(n.condition) },
  };
}

/**
 * The decider's changes for a raw patch. The identity (`match`) spans all three fields, so the
 * unchanged ones are normalized again from their display forms (which normalize to themselves);
 * the fields sent get new display forms, an `input` entry and a report. A card name kept as given
 * can read otherwise against a new set (the catalogue corrects a typo against the set's names):
 * then it too gets its new display form and a report, so the name shown is the identity matched.
 */
export function resolvePatch(
  patch: InventoryItemPatch,
  state: InventoryState,
): { changes: InventoryItemChanges; normalization: Partial<ListingNormalization> } {
  const { cardName, setName, condition, ...rest } = patch;
  const typed: Partial<ListingText> = { cardName, setName, condition };
  const retyped = LISTING_FIELDS.filter((f) => typed[f] !== undefined);
  if (retyped.length === 0 || state.status !== 'live') return { changes: rest, normalization: {} };
  const current = state.item;
  const normalized = normalizeListingText({
    cardName: cardName ?? current.cardName,
    setName: setName ?? current.setName,
    condition: condition ?? current.condition,
  });
  const changes: InventoryItemChanges = { ...rest, match: normalized.match, input: {} };
  const normalization: Partial<ListingNormalization> = {};
  for (const field of LISTING_FIELDS) {
    const sent = typed[field] !== undefined;
    if (!sent && normalized.display[field] === current[field]) continue;
    changes[field] = normalized.display[field];
    normalization[field] = normalized.report[field];
    if (sent) changes.input = { ...changes.input, [field]: typed[field] };
  }
  return { changes, normalization };
}

