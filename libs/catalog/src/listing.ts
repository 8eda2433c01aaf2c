// normalizeListing: one call for the three fields a listing or request carries, plus the flat
// fields the match engine indexes on. Every entry point (buyer requests, inventory, intake rows)
// normalizes through it, so a typed name is resolved the same way everywhere.
import type { CardName, Condition, Normalization, SetRef } from './catalog.types';
import { resolveCardName } from './card-name-resolution';
import { conditionClass, conditionScore, normalizeCondition } from './condition';
import { normalizeSetName } from './set-name';

/** The set key of a request for any printing of its card (no catalogue or typed set is `*`). */
export const ANY_SET_KEY = '*';
/** The condition class of a request that takes any condition (no condition class is `*`). */
export const ANY_CONDITION_CLASS = '*';

/** The match key a request for any printing of the card is indexed under: `*|<cardKey>`. */
export const anySetMatchKey = (cardKey: string): string => `${ANY_SET_KEY}|${cardKey}`;

export interface MatchFields {
  cardKey: string;
  /** The set's key, or `*` (ANY_SET_KEY) for a request that takes any printing. */
  setKey: string;
  /** `${setKey}|${cardKey}`: the same card printed in the same set (`*|<cardKey>`: any printing). */
  matchKey: string;
  /** `raw`, `graded`, `unknown:<label>`, or `*` (ANY_CONDITION_CLASS) for a request that takes any condition. */
  conditionClass: string;
  conditionScore: number;
  gradingCompany: string | null;
}

export interface NormalizedListing {
  cardName: Normalization<CardName>;
  setName: Normalization<SetRef>;
  condition: Normalization<Condition>;
  match: MatchFields;
}

export interface ListingInput {
  cardName: string;
  setName: string;
  condition: string;
}

/** What a buyer asks for: only the card is required (null or absent set or condition: any). */
export interface WantInput {
  cardName: string;
  setName?: string | null;
  condition?: string | null;
}

export interface NormalizedWant {
  cardName: Normalization<CardName>;
  /** Null: any printing of the card. */
  setName: Normalization<SetRef> | null;
  /** Null: any condition. */
  condition: Normalization<Condition> | null;
  match: MatchFields;
}

/**
 * normalizeListing for a request, whose set and condition may be open: an open set gives the
 * match key `*|<cardKey>` (any printing), an open condition the class `*` and score 0 (any
 * condition), so reverse matching finds such requests by equality on the same index fields. A
 * set or condition given explicitly is normalized exactly as a listing's (unknown: kept as typed
 * and flagged). Without a set, a card name is not corrected (the set is what makes a one-letter
 * correction safe).
 */
export function normalizeWant(input: WantInput): NormalizedWant {
  const setName = input.setName === null || input.setName === undefined ? null : normalizeSetName(input.setName);
  const cardName = resolveCardName(input.cardName, setName?.value.setId);
  const condition = input.condition === null || input.condition === undefined ? null : normalizeCondition(input.condition);
  const cardKey = cardName.value.key;
  const setKey = setName ? setName.value.key : ANY_SET_KEY;
  return {
    cardName,
    setName,
    condition,
    match: {
      cardKey,
      setKey,
      matchKey: `${setKey}|${cardKey}`,
      conditionClass: condition ? conditionClass(condition.value) : ANY_CONDITION_CLASS,
      conditionScore: condition ? conditionScore(condition.value) : 0,
      gradingCompany: condition && condition.value.kind === 'graded' ? condition.value.company : null,
    },
  };
}

/** The set first: a card name the catalogue does not know is resolved against the set's names. */
export function normalizeListing(input: ListingInput): NormalizedListing {
  const setName = normalizeSetName(input.setName);
  const cardName = resolveCardName(input.cardName, setName.value.setId);
  const condition = normalizeCondition(input.condition);
  const cardKey = cardName.value.key;
  const setKey = setName.value.key;
  return {
    cardName,
    setName,
    condition,
    match: {
      cardKey,
      setKey,
      matchKey: `${setKey}|${cardKey}`,
      conditionClass: conditionClass(condition.value),
      conditionScore: conditionScore(condition.value),
      gradingCompany: condition.value.kind === 'graded' ? condition.value.company : null,
    },
  };
}
