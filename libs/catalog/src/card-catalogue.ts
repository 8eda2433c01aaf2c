// The card-name catalogue, indexed once on first use: exact spellings, keys, names per set, and a
// length-bucketed key list so the whole-catalogue typo search only looks at plausible lengths.
import { cardNameKey, identitySignature, unbracketedKey } from './card-name-key';
import { CARD_NAMES } from './data/card-names.generated';
import { SET_CARD_NAMES } from './data/set-card-names.generated';
import { lazyIndex } from './lazy-index';
import { DIFFERENT_IDENTITY_CAP, editDistance, TYPO_SIMILARITY } from './similarity';

interface CardCatalogue {
  /** Exact catalogue spelling → its key. */
  readonly keyOfName: ReadonlyMap<string, string>;
  /** Key → catalogue spellings, the most common first (e.g. `Ho-Oh` before `Ho-oh`). */
  readonly namesOfKey: ReadonlyMap<string, readonly string[]>;
  /** set_id → distinct keys of the names printed in that set. */
  readonly keysOfSet: ReadonlyMap<string, readonly string[]>;
  /** Key length → keys of that length. */
  readonly keysByLength: ReadonlyMap<number, readonly string[]>;
  readonly signatureOfKey: ReadonlyMap<string, string>;
  /** Keys with variant brackets, by their unbracketed form (`unown a` → `unown [a]`). */
  readonly bracketedKeys: ReadonlyMap<string, readonly string[]>;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function build(): CardCatalogue {
  const setsContaining = new Array<number>(CARD_NAMES.length).fill(0);
  const keysOfSet = new Map<string, string[]>();
  const keys = CARD_NAMES.map(cardNameKey);
  for (const [setId, indexes] of Object.entries(SET_CARD_NAMES)) {
    for (const i of indexes) setsContaining[i]++;
    keysOfSet.set(setId, [...new Set(indexes.map((i) => keys[i]))]);
  }
  const keyOfName = new Map<string, string>();
  const namesOfKey = new Map<string, string[]>();
  CARD_NAMES.forEach((name, i) => {
    keyOfName.set(name, keys[i]);
    pushTo(namesOfKey, keys[i], name);
  });
  const order = new Map(CARD_NAMES.map((name, i) => [name, i]));
  const rank = (name: string): number => setsContaining[order.get(name) ?? 0];
  for (const names of namesOfKey.values()) names.sort((a, b) => rank(b) - rank(a));
  const keysByLength = new Map<number, string[]>();
  const signatureOfKey = new Map<string, string>();
  const bracketedKeys = new Map<string, string[]>();
  for (const key of namesOfKey.keys()) {
    pushTo(keysByLength, key.length, key);
    signatureOfKey.set(key, identitySignature(key));
    const loose = unbracketedKey(key);
    if (loose !== key) pushTo(bracketedKeys, loose, key);
  }
  return { keyOfName, namesOfKey, keysOfSet, keysByLength, signatureOfKey, bracketedKeys };
}

const cards = lazyIndex(build);

/** The key of an exact catalogue spelling, or undefined when `name` is not one. */
export function keyOfCatalogueName(name: string): string | undefined {
  return cards().keyOfName.get(name);
}

/** The usual catalogue spelling for a key, or undefined when no catalogue name has it. */
export function catalogueNameOfKey(key: string): string | undefined {
  return cards().namesOfKey.get(key)?.[0];
}

/** Every catalogue spelling of a key (more than one only for true variants such as `Ho-Oh`/`Ho-oh`). */
export function catalogueSpellingsOfKey(key: string): readonly string[] {
  return cards().namesOfKey.get(key) ?? [];
}

/**
 * The one catalogue key that is `key` with variant brackets (`unown a` → `unown [a]`), when
 * `key` has none and exactly one such key exists; else undefined.
 */
export function bracketedCatalogueKey(key: string): string | undefined {
  const keys = cards().bracketedKeys.get(key);
  return keys?.length === 1 && unbracketedKey(key) === key ? keys[0] : undefined;
}

/** All distinct catalogue keys. */
export function catalogueCardKeys(): readonly string[] {
  return [...cards().namesOfKey.keys()];
}

/** Distinct keys of the names printed in a set, or undefined for an unknown set id. */
export function cardKeysOfSet(setId: string): readonly string[] | undefined {
  return cards().keysOfSet.get(setId);
}

export interface SimilarCardNamesOptions {
  /** Search only this set's names when it is a known set id (a SetRef key); else the whole catalogue. */
  setKey?: string;
  /** Minimum `nameSimilarity`; default 0.85, the typo threshold. */
  minSimilarity?: number;
  /** Most results; default 10. */
  limit?: number;
}

/**
 * Catalogue card-name keys close to `key`, best first (ties by key), excluding `key` itself:
 * typo candidates for the match engine.
 */
export function similarCardNames(key: string, options: SimilarCardNamesOptions = {}): string[] {
  const { setKey, minSimilarity = TYPO_SIMILARITY, limit = 10 } = options;
  if (key === '' || limit <= 0) return [];
  const catalogueIndex = cards();
  const signature = identitySignature(key);
  // Below the cap, differing identities can still qualify; above it they never do.
  const needSameIdentity = minSimilarity > DIFFERENT_IDENTITY_CAP;
  // `closeness` (uncapped) orders candidates the identity cap made equal.
  const found: Array<{ key: string; similarity: number; closeness: number }> = [];
  const { signatureOfKey } = catalogueIndex;
  const slack = 1 - minSimilarity;
  // Called for thousands of candidates: plain arithmetic, no globals (slow in jest's vm context).
  const consider = (candidate: string): void => {
    if (candidate === key) return;
    const sameIdentity = signatureOfKey.get(candidate) === signature;
    if (needSameIdentity && !sameIdentity) return;
    const longer = key.length > candidate.length ? key.length : candidate.length;
    const maxDistance = (slack * longer + 1e-9) | 0;
    const distance = editDistance(key, candidate, maxDistance);
    if (distance > maxDistance) return;
    const closeness = 1 - distance / longer;
    // Equal to nameSimilarity(key, candidate), from the already-bounded distance.
    const similarity = sameIdentity || closeness < DIFFERENT_IDENTITY_CAP ? closeness : DIFFERENT_IDENTITY_CAP;
    if (similarity >= minSimilarity) found.push({ key: candidate, similarity, closeness });
  };

  const inSet = setKey === undefined ? undefined : catalogueIndex.keysOfSet.get(setKey);
  if (inSet) inSet.forEach(consider);
  else {
    // Length window: a key of length L can only reach `minSimilarity` against lengths within it.
    const shortest = Math.ceil(key.length * minSimilarity - 1e-9);
    const longest = minSimilarity > 0 ? Math.floor(key.length / minSimilarity + 1e-9) : Number.MAX_SAFE_INTEGER;
    for (const [length, keys] of catalogueIndex.keysByLength) {
      if (length >= shortest && length <= longest) keys.forEach(consider);
    }
  }
  found.sort((a, b) => b.similarity - a.similarity || b.closeness - a.closeness || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return found.slice(0, limit).map((f) => f.key);
}
