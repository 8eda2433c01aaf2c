// resolveCardName: normalizeCardName, then a correction for a name the catalogue does not know,
// against the names printed in the requested set. A typed name resolves to a catalogue name when
// it is that name with a missing or extra space or hyphen (`ZekromGX` → `Zekrom-GX`), or else one
// letter off it (`Chairzard` → `Charizard`), and exactly one name printed in the set is: two as
// close (`Nidorine`: Nidorina and Nidorino) correct nothing. A catalogue name is never corrected,
// since it is already a card. Corrections are reported as a change, with a lower confidence.
//
// Rules for a one-letter correction, so a different card is never taken for a typo:
// - the letter is in one word, and every other word is as typed (no spacing change on top);
// - that word has at least 5 letters in the catalogue name, or 4 for an identity word (`Dark`,
//   `Mega`, `VMAX`, `Radiant`, `Hisuian`…): `Onix`, `Mew` or a trainer's name are never corrected,
//   one letter there is too much of the word (`Natu`/`Xatu`, `Bill`/`Will`);
// - a word typed as an identity token (ex, GX, V, Dark…) is never changed, nor a digit (`Blaine's
//   Quiz #1`, `Porygon2`) or a bracketed variant (`Unown [A]`): those tell cards apart.
// Without a recognised set nothing is corrected: the set is what makes one letter a safe guess.
import type { CardName, Normalization } from './catalog.types';
import { catalogueNameOfKey, catalogueSpellingsOfKey } from './card-catalogue';
import { readCardName, unknownCardName, type UnknownCardName } from './card-name';
import { IDENTITY_TOKENS } from './card-name-key';
import { isPrintedIn, keysOneEditFrom, keysWithLettersOf } from './card-name-neighbours';
import { foldAccents } from './text';

/** A name typed with a missing or extra space or hyphen, corrected. */
export const CONFIDENCE_SPACING_CORRECTED = 0.85;
/** A name typed one letter off, corrected. */
export const CONFIDENCE_LETTER_CORRECTED = 0.8;
/** The shortest catalogue word a one-letter correction may change; identity words: one less. */
export const MIN_CORRECTED_WORD_LENGTH = 5;

type Finding =
  | { found: 'one'; key: string; how: 'spacing' | 'letter' }
  | { found: 'several'; keys: readonly string[]; how: 'spacing' | 'letter' }
  | { found: 'none' };

/**
 * The catalogue card a typed name means, given the set it was asked in (a catalogue set id; null
 * when the set is not recognised): `normalizeCardName`'s answer when it knows the name, else the
 * one name of the set it is a spacing or letter slip of, else the name kept as given, flagged.
 */
export function resolveCardName(input: string, setId: string | null | undefined): Normalization<CardName> {
  const read = readCardName(input);
  if ('known' in read) return read.known;
  const typed = read.unknown;
  const finding: Finding = setId ? correction(typed, setId) : { found: 'none' };
  if (finding.found === 'none') return unknownCardName(typed);
  if (finding.found === 'several') {
    const names = finding.keys.map((k) => `"${catalogueNameOfKey(k) ?? k}"`).sort();
    const listed = names.length === 2 ? `${names[0]} and ${names[1]} are both` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are all`;
    const close = finding.how === 'spacing' ? 'spelled with these letters' : 'one letter off';
    return unknownCardName(typed, `unknown card name "${typed.text}" kept as given: ${listed} ${close}, so it was not corrected`);
  }
  const name = catalogueNameOfKey(finding.key) ?? finding.key;
  const spacing = finding.how === 'spacing';
  return {
    value: { name, key: finding.key },
    input,
    changes: [...typed.changes, `corrected "${typed.text}" to "${name}" (${spacing ? 'spacing' : 'one letter off'})`],
    confidence: spacing ? CONFIDENCE_SPACING_CORRECTED : CONFIDENCE_LETTER_CORRECTED,
    warnings: [],
    recognized: true,
  };
}

function correction(typed: UnknownCardName, setId: string): Finding {
  const spaced = byCase(typed.text, keysWithLettersOf(typed.reading.key).filter((k) => isPrintedIn(k, setId)));
  if (spaced.length === 1) return { found: 'one', key: spaced[0], how: 'spacing' };
  if (spaced.length > 1) return { found: 'several', keys: spaced, how: 'spacing' };

  // Every name of the set one edit away counts, even one the rules would not correct to
  // (`Porygono`: Porygon, and Porygon2 by its digit), and so do both readings of an ex/EX the case
  // could not tell (`chairzard ex`): the correction must be the only one.
  const found = new Map<string, string>();
  for (const key of [typed.reading.key, typed.reading.alternateKey]) {
    if (key === null) continue;
    for (const candidate of keysOneEditFrom(key)) if (isPrintedIn(candidate, setId)) found.set(candidate, key);
  }
  if (found.size > 1) return { found: 'several', keys: [...found.keys()], how: 'letter' };
  const [only] = found;
  return only !== undefined && isWordSlip(only[1], only[0]) ? { found: 'one', key: only[0], how: 'letter' } : { found: 'none' };
}

/**
 * Keys with the same letters can differ only in ex/EX (`mewtwo ex`, `mewtwo EX`): the typed case
 * decides when it matches one catalogue spelling (`MewtwoEX` → `Mewtwo-EX`); else all stay.
 */
function byCase(text: string, keys: readonly string[]): readonly string[] {
  if (keys.length < 2) return keys;
  const typed = caseLetters(text);
  const same = keys.filter((k) => catalogueSpellingsOfKey(k).some((spelling) => caseLetters(spelling) === typed));
  return same.length === 1 ? same : keys;
}

function caseLetters(text: string): string {
  return foldAccents(text).replace(/[^\p{L}\p{N}]/gu, '');
}

/** Is `candidate` (one edit from `typed`) the same words with one of them mistyped, by the rules above? */
function isWordSlip(typed: string, candidate: string): boolean {
  const typedWords = typed.split(' ');
  const words = candidate.split(' ');
  if (typedWords.length !== words.length) return false;
  let at = -1;
  for (let i = 0; i < words.length; i++) {
    if (typedWords[i] === words[i]) continue;
    if (at !== -1) return false;
    at = i;
  }
  if (at === -1) return false;
  const [typedWord, word] = [typedWords[at], words[at]];
  if (IDENTITY_TOKENS.has(typedWord) || !WORD.test(typedWord) || !WORD.test(word) || digits(typedWord) !== digits(word)) return false;
  const letters = word.length - digits(word).length;
  return letters >= (IDENTITY_TOKENS.has(word) ? MIN_CORRECTED_WORD_LENGTH - 1 : MIN_CORRECTED_WORD_LENGTH);
}

/** Letters and digits only: no brackets (`[a]`) and no `lv.x`. */
const WORD = /^[\p{L}\p{N}]+$/u;

function digits(word: string): string {
  return word.replace(/\P{N}/gu, '');
}
