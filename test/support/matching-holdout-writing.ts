// The ways the matching holdout writes a name, a set or a condition as people type them: case
// noise, one-letter typos (keyboard neighbours), the documented condition spellings, and the
// seeded random source that keeps it all deterministic. Test support for matching-holdout.ts.
import { IDENTITY_TOKENS } from '@app/catalog';
import { mulberry32 } from './random';

/** Raw grades, best first, with the spellings docs/conditions.md documents for each. */
export const GRADES: ReadonlyArray<{ rank: number; label: string; spellings: readonly string[] }> = [
  { rank: 6, label: 'Mint', spellings: ['M', 'mint', 'MT', 'Gem Mint', 'GEM-MT'] },
  { rank: 5, label: 'Near Mint', spellings: ['NM', 'nm', 'near mint', 'Near-Mint', 'NM-M', 'NM/M', 'nm-mt', 'Near Mint-Mint', 'NM+'] },
  { rank: 4, label: 'Lightly Played', spellings: ['LP', 'lp', 'lightly played', 'Light Play', 'Light Played', 'Excellent', 'EX', 'exc', 'SP', 'Slightly Played'] },
  { rank: 3, label: 'Moderately Played', spellings: ['MP', 'mp', 'moderately played', 'Moderate Play', 'Played', 'PL'] },
];

export const gradeOf = (label: string) => GRADES.find((g) => g.label === label) ?? GRADES[1];

const KEYBOARD: Readonly<Record<string, string>> = {
  a: 'qwsz', b: 'vghn', c: 'xdfv', d: 'serfcx', e: 'wsdr', f: 'drtgvc', g: 'ftyhbv', h: 'gyujnb', i: 'ujko',
  j: 'huikmn', k: 'jiolm', l: 'kop', m: 'njk', n: 'bhjm', o: 'iklp', p: 'ol', q: 'wa', r: 'edft', s: 'awedxz',
  t: 'rfgy', u: 'yhji', v: 'cfgb', w: 'qase', x: 'zsdc', y: 'tghu', z: 'asx',
};

export type TypoKind = 'transposed' | 'dropped' | 'doubled' | 'substituted';
export const TYPO_KINDS: readonly TypoKind[] = ['transposed', 'dropped', 'doubled', 'substituted'];

/** Identity words players type as words (the symbol words δ ★ ◇ ♀ ♂ α β γ are typed as symbols). */
const SYMBOL_WORDS = ['delta', 'star', 'prism', 'female', 'male', 'alpha', 'beta', 'gamma', 'exclamation', 'question'];
export const TYPED_IDENTITY_WORDS = new Set([...IDENTITY_TOKENS].filter((t) => t.length >= 4 && !SYMBOL_WORDS.includes(t)));

/** A seeded source (mulberry32): the same seed, the same holdout. */
export class Random {
  private readonly source: () => number;

  constructor(seed: number) {
    this.source = mulberry32(seed);
  }

  /** 0 ≤ n < 1. */
  next(): number {
    return this.source();
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  shuffled<T>(list: readonly T[]): T[] {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

export const fold = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '');
export const compact = (key: string): string => key.replace(/[\s[\]]/g, '').toLowerCase();
export const isIdentityWord = (word: string): boolean => IDENTITY_TOKENS.has(fold(word).toLowerCase()) || /^ex$/i.test(word);

export interface Word {
  word: string;
  at: number;
  /** Its letters as the key spells the word: a possessive `'s` is part of it (`Koga's` → `kogas`). */
  length: number;
}

/** The letter words of a display name, with their offsets. */
export function words(name: string): Word[] {
  return [...name.matchAll(/\p{L}+/gu)].map((m) => {
    const at = m.index ?? 0;
    const possessive = /^['’]s(?!\p{L})/u.test(name.slice(at + m[0].length));
    return { word: m[0], at, length: m[0].length + (possessive ? 1 : 0) };
  });
}

/** Case noise on every word but an ex/EX token (whose case is its identity). */
export function recase(random: Random, name: string): string {
  const style = random.pick(['lower', 'upper', 'title', 'random'] as const);
  return name.replace(/\p{L}+/gu, (w) => {
    if (/^ex$/i.test(w)) return w;
    if (style === 'lower') return w.toLowerCase();
    if (style === 'upper') return w.toUpperCase();
    if (style === 'title') return w[0].toUpperCase() + w.slice(1).toLowerCase();
    return [...w].map((c) => (random.next() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join('');
  });
}

/** One typo of `kind` in `word` (a letter word of a name), or null when it cannot take one. */
export function typo(random: Random, word: string, kind: TypoKind): string | null {
  const at = (lo: number, hi: number) => (hi < lo ? -1 : random.int(lo, hi));
  const ascii = (c: string) => /^[a-z]$/i.test(c);
  const withCase = (template: string, c: string) => (template === template.toUpperCase() ? c.toUpperCase() : c);
  if (kind === 'transposed') {
    const positions = [...word].flatMap((c, i) => (i + 1 < word.length && c.toLowerCase() !== word[i + 1].toLowerCase() ? [i] : []));
    if (positions.length === 0) return null;
    const i = random.pick(positions);
    // The letters swap; the case stays where it was (`Crboat`, not `rCobat`).
    return word.slice(0, i) + withCase(word[i], word[i + 1].toLowerCase()) + withCase(word[i + 1], word[i].toLowerCase()) + word.slice(i + 2);
  }
  if (kind === 'dropped') {
    const i = at(1, word.length - 1);
    return i < 0 ? null : word.slice(0, i) + word.slice(i + 1);
  }
  if (kind === 'doubled') {
    const i = at(0, word.length - 1);
    return word.slice(0, i + 1) + word[i].toLowerCase() + word.slice(i + 1);
  }
  const positions = [...word].flatMap((c, i) => (i > 0 && ascii(c) ? [i] : []));
  if (positions.length === 0) return null;
  const i = random.pick(positions);
  const replacement = random.pick([...KEYBOARD[word[i].toLowerCase()]]);
  return word.slice(0, i) + withCase(word[i], replacement) + word.slice(i + 1);
}
