// normalizeListing: one call for the three fields a listing or request carries, plus the flat
// fields the match engine indexes on. Every entry point (buyer requests, inventory, intake rows)
// normalizes through it, so a typed name is resolved the same way everywhere.
import type { CardName, Condition, Normalization, SetRef } from './catalog.types';
import { resolveCardName } from './card-name-resolution';
import { conditionClass, conditionScore, normalizeCondition } from './condition';
import { normalizeSetName } from './set-name';

export interface MatchFields {
  cardKey: string;
  setKey: string;
  /** `${setKey}|${cardKey}`: the same card printed in the same set. */
  matchKey: string;
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
