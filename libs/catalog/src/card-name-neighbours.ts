// The catalogue's card-name keys indexed for correcting a typed name (see card-name-resolution.ts),
// built once on first use: by their letters alone (a missing or extra space or hyphen changes no
// letter) and by their one-deletion neighbourhood (symmetric delete: two strings one edit apart —
// a letter inserted, dropped, substituted or two adjacent letters swapped — share the one or a
// one-letter deletion of the other). A lookup is one hash probe per character of the typed key
// and an edit-distance check of the few keys found, never a scan of the catalogue.
import { cardKeysOfSet, catalogueCardKeys } from './card-catalogue';
import { lazyIndex } from './lazy-index';
import { editDistance } from './similarity';

interface NeighbourIndex {
  readonly keys: readonly string[];
  /** Letters and digits of a key, lower case → indexes of the keys spelled with them. */
  readonly byLetters: ReadonlyMap<string, readonly number[]>;
  /** A key, and each of its one-character deletions → indexes of the keys giving it. */
  readonly byDeletion: ReadonlyMap<string, readonly number[]>;
}

const printedIn = new Map<string, ReadonlySet<string>>();

/** A key's letters and digits, lower case: `zekrom gx` and `zekromgx` → `zekromgx`. */
export function lettersOf(key: string): string {
  return key.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}

function pushTo(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

function build(): NeighbourIndex {
  const keys = catalogueCardKeys();
  const byLetters = new Map<string, number[]>();
  const byDeletion = new Map<string, number[]>();
  keys.forEach((key, i) => {
    pushTo(byLetters, lettersOf(key), i);
    pushTo(byDeletion, key, i);
    for (let j = 0; j < key.length; j++) pushTo(byDeletion, key.slice(0, j) + key.slice(j + 1), i);
  });
  return { keys, byLetters, byDeletion };
}

const neighbours = lazyIndex(build);

/** Catalogue keys spelled with the same letters and digits as `key` (spacing and punctuation aside). */
export function keysWithLettersOf(key: string): string[] {
  const { keys, byLetters } = neighbours();
  return (byLetters.get(lettersOf(key)) ?? []).map((i) => keys[i]).filter((k) => k !== key);
}

/** Catalogue keys exactly one edit from `key` (optimal string alignment distance 1), in catalogue order. */
export function keysOneEditFrom(key: string): string[] {
  const { keys, byDeletion } = neighbours();
  const found = new Set<number>();
  const probe = (variant: string): void => {
    for (const i of byDeletion.get(variant) ?? []) found.add(i);
  };
  probe(key);
  for (let j = 0; j < key.length; j++) probe(key.slice(0, j) + key.slice(j + 1));
  // The probes find every key one edit away and some two edits away (two different deletions).
  return [...found].sort((a, b) => a - b).map((i) => keys[i]).filter((k) => k !== key && editDistance(key, k, 1) === 1);
}

/** Whether a name with this key is printed in the set (a catalogue set id). */
export function isPrintedIn(key: string, setId: string): boolean {
  let keys = printedIn.get(setId);
  if (keys === undefined) {
    keys = new Set(cardKeysOfSet(setId) ?? []);
    printedIn.set(setId, keys);
  }
  return keys.has(key);
}
