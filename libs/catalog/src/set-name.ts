// normalizeSetName / findSet: resolve a typed set to the catalogue set by name, set id, code or
// alias. Lookups run in tiers, most specific first; within a tier several sets can match (eight
// ptcgo codes are shared by a set and its subset): the earliest release wins, then catalogue
// order (the main set precedes its subset), with a warning and lower confidence.
import type { Normalization, SetRef } from './catalog.types';
import type { CatalogueSet } from './catalogue-data.types';
import { CATALOGUE_SETS } from './data/sets.generated';
import { lazyIndex } from './lazy-index';
import { editDistance, similarityFromDistance } from './similarity';
import { cleanText, foldLoose } from './text';

interface Tier {
  /** How the input was read, for the change note, e.g. `set code`. */
  readonly what: string;
  readonly confidence: number;
  readonly index: ReadonlyMap<string, readonly CatalogueSet[]>;
  /** Exact tiers look up the cleaned text, loose tiers its folded form. */
  readonly loose: boolean;
}

const CONFIDENCE_AMBIGUOUS = 0.7;
const CONFIDENCE_CROSS_MATCH = 0.8;
const CONFIDENCE_UNKNOWN = 0.4;
const SUGGESTION_SIMILARITY = 0.7;

/** The alias forms of a set name: `Base` → `Base Set`; `Kalos Starter Set` → `Kalos Starter`. */
export function setNameAliases(name: string): string[] {
  const folded = foldLoose(name);
  return folded.endsWith(' set') ? [folded.slice(0, -' set'.length)] : [`${folded} set`];
}

function buildTiers(): readonly Tier[] {
  const ordered = [...CATALOGUE_SETS].sort((a, b) => (a.releaseDate < b.releaseDate ? -1 : a.releaseDate > b.releaseDate ? 1 : 0));
  const index = (keysOf: (s: CatalogueSet) => Array<string | null>): Map<string, CatalogueSet[]> => {
    const map = new Map<string, CatalogueSet[]>();
    for (const set of ordered) {
      for (const key of new Set(keysOf(set))) {
        if (!key) continue;
        const list = map.get(key);
        if (list) list.push(set);
        else map.set(key, [set]);
      }
    }
    return map;
  };
  return [
    { what: 'set name', confidence: 1, loose: false, index: index((s) => [s.name]) },
    { what: 'set id', confidence: 1, loose: false, index: index((s) => [s.setId]) },
    { what: 'set code', confidence: 0.95, loose: false, index: index((s) => [s.code]) },
    { what: 'set name', confidence: 0.95, loose: true, index: index((s) => [foldLoose(s.name)]) },
    {
      what: 'set id or code',
      confidence: 0.9,
      loose: true,
      index: index((s) => [foldLoose(s.setId), s.code === null ? null : foldLoose(s.code)]),
    },
    { what: 'set alias', confidence: 0.9, loose: true, index: index((s) => setNameAliases(s.name)) },
  ];
}

const setTiers = lazyIndex(buildTiers);

export function toSetRef(set: CatalogueSet): SetRef {
  return { name: set.name, key: set.setId, setId: set.setId, code: set.code };
}

interface Resolution {
  set: CatalogueSet;
  tier: Tier;
  /** Every set the input matched in its tier, chosen one first. */
  candidates: readonly CatalogueSet[];
  /** Other sets the input matches in later tiers (`g1` is Generations' id and Gym Heroes' code). */
  alsoMatches: readonly CatalogueSet[];
}

function resolve(cleaned: string): Resolution | undefined {
  const folded = foldLoose(cleaned);
  const matches = setTiers().map((tier) => ({ tier, candidates: tier.index.get(tier.loose ? folded : cleaned) ?? [] }));
  const first = matches.find((m) => m.candidates.length > 0);
  if (!first) return undefined;
  const alsoMatches = new Set(matches.flatMap((m) => m.candidates));
  for (const set of first.candidates) alsoMatches.delete(set);
  return { set: first.candidates[0], tier: first.tier, candidates: first.candidates, alsoMatches: [...alsoMatches] };
}

export function normalizeSetName(input: string): Normalization<SetRef> {
  const { text, changes } = cleanText(input);
  const resolution = text === '' ? undefined : resolve(text);
  if (!resolution) {
    const suggestion = suggestSet(text);
    return {
      value: { name: text, key: `?${foldLoose(text)}`, setId: null, code: null },
      input,
      changes,
      confidence: text === '' ? 0 : CONFIDENCE_UNKNOWN,
      warnings: [
        text === ''
          ? 'empty set name'
          : `unknown set "${text}" kept as given${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
      ],
      recognized: false,
    };
  }
  const { set, tier, candidates, alsoMatches } = resolution;
  const warnings: string[] = [];
  let confidence = text === input ? tier.confidence : Math.min(tier.confidence, 0.95);
  if (text !== set.name) changes.push(`resolved ${tier.what} "${text}" to "${set.name}"`);
  if (candidates.length > 1) {
    confidence = Math.min(confidence, CONFIDENCE_AMBIGUOUS);
    const names = candidates.map((c) => `"${c.name}" (${c.setId})`).join(', ');
    warnings.push(`${tier.what} "${text}" matches ${names}; chose "${set.name}" (earliest release, then catalogue order)`);
  }
  if (alsoMatches.length > 0) {
    confidence = Math.min(confidence, CONFIDENCE_CROSS_MATCH);
    const names = alsoMatches.map((c) => `"${c.name}" (${c.setId})`).join(', ');
    warnings.push(`"${text}" read as the ${tier.what} of "${set.name}"; it also names ${names}`);
  }
  return { value: toSetRef(set), input, changes, confidence, warnings, recognized: true };
}

/** The catalogue set for a set id, name, code or alias (as normalizeSetName reads them), else null. */
export function findSet(keyOrName: string): SetRef | null {
  const resolution = resolve(cleanText(keyOrName).text);
  return resolution ? toSetRef(resolution.set) : null;
}

/** The closest set name by spelling, else the one set whose name starts with the input's words. */
function suggestSet(text: string): string | undefined {
  const folded = foldLoose(text);
  if (folded === '') return undefined;
  let best: { name: string; similarity: number } | undefined;
  const extending: string[] = [];
  for (const set of CATALOGUE_SETS) {
    const name = foldLoose(set.name);
    const similarity = similarityFromDistance(editDistance(folded, name), folded.length, name.length);
    if (similarity >= SUGGESTION_SIMILARITY && (!best || similarity > best.similarity)) best = { name: set.name, similarity };
    if (name.startsWith(`${folded} `)) extending.push(set.name);
  }
  return best?.name ?? (extending.length === 1 ? extending[0] : undefined);
}
