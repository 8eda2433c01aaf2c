// Card names for the widget's type-ahead, from the bundled catalogue (its public API only): names
// whose key starts with what was typed, then names with a word starting with it, then close
// spellings (a typo), each with the sets it was printed in, newest first. Pure, indexed once.
import { CATALOGUE_SETS, cardKeysOfSet, cardNameKey, catalogueCardKeys, catalogueNameOfKey, similarCardNames } from '@app/catalog';

export interface CardSuggestion {
  cardName: string;
  /** Sets the card was printed in, newest first (at most MAX_SETS). */
  sets: string[];
}

export const MAX_SUGGESTIONS = 10;
const MAX_SETS = 12;
const TYPO_SIMILARITY = 0.7;

interface SuggestionIndex {
  keys: readonly string[];
  setsOfKey: ReadonlyMap<string, readonly string[]>;
  /** How many sets printed each key. */
  printings: ReadonlyMap<string, number>;
}

let index: SuggestionIndex | undefined;

function build(): SuggestionIndex {
  const setsOfKey = new Map<string, string[]>();
  const printings = new Map<string, number>();
  const newestFirst = [...CATALOGUE_SETS].sort((a, b) => (a.releaseDate < b.releaseDate ? 1 : a.releaseDate > b.releaseDate ? -1 : 0));
  for (const set of newestFirst) {
    for (const key of cardKeysOfSet(set.setId) ?? []) {
      printings.set(key, (printings.get(key) ?? 0) + 1);
      const sets = setsOfKey.get(key);
      if (!sets) setsOfKey.set(key, [set.name]);
      else if (sets.length < MAX_SETS && !sets.includes(set.name)) sets.push(set.name);
    }
  }
  return { keys: [...catalogueCardKeys()].sort(), setsOfKey, printings };
}

function suggestionIndex(): SuggestionIndex {
  index ??= build();
  return index;
}

/** Up to `limit` suggestions for what was typed (nothing below 2 characters). */
export function suggestCards(typed: string, limit = MAX_SUGGESTIONS): CardSuggestion[] {
  const key = cardNameKey(typed);
  if (key.length < 2 || limit <= 0) return [];
  const { keys, setsOfKey, printings } = suggestionIndex();
  const prefix: string[] = [];
  const word: string[] = [];
  for (const candidate of keys) {
    if (candidate.startsWith(key)) prefix.push(candidate);
    else if (candidate.includes(` ${key}`)) word.push(candidate);
  }
  const byPrintings = (a: string, b: string): number =>
    (printings.get(b) ?? 0) - (printings.get(a) ?? 0) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const found = [...prefix.sort(byPrintings), ...word.sort(byPrintings)];
  if (found.length < limit) {
    for (const close of similarCardNames(key, { minSimilarity: TYPO_SIMILARITY, limit })) if (!found.includes(close)) found.push(close);
  }
  return found.slice(0, limit).flatMap((k) => {
    const cardName = catalogueNameOfKey(k);
    return cardName ? [{ cardName, sets: [...(setsOfKey.get(k) ?? [])] }] : [];
  });
}
