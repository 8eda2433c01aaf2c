// normalizeCardName: the catalogue's spelling when the name is known, else the cleaned input
// kept verbatim and flagged. ex/EX is only guessed when the typed case cannot tell them apart.
import type { CardName, Normalization } from './catalog.types';
import { bracketedCatalogueKey, catalogueNameOfKey, keyOfCatalogueName, similarCardNames } from './card-catalogue';
import { type CardKeyReading, readCardKey } from './card-name-key';
import { cleanText } from './text';

const CONFIDENCE_RESPELLED = 0.95;
/** Also for a variant typed without its brackets (`Unown A` → `Unown [A]`). */
const CONFIDENCE_EX_GUESSED = 0.85;
const CONFIDENCE_EX_AMBIGUOUS = 0.6;
const CONFIDENCE_UNKNOWN = 0.5;
/** Did-you-mean suggestions may differ in an identity token (ex vs EX), unlike typo matches. */
const SUGGESTION_SIMILARITY = 0.75;

export function normalizeCardName(input: string): Normalization<CardName> {
  const read = readCardName(input);
  return 'known' in read ? read.known : unknownCardName(read.unknown);
}

/** A name the catalogue does not know, as read: cleaned text, its cleaning changes, its key reading. */
export interface UnknownCardName {
  input: string;
  text: string;
  changes: string[];
  reading: CardKeyReading;
}

/**
 * Everything `normalizeCardName` can tell from the name alone: the catalogue name it is (exactly,
 * respelled, an ex/EX reading, a bracketed variant), an empty name, or an unknown one as read
 * (for `resolveCardName`, which may still correct it against a set's names).
 */
export function readCardName(input: string): { known: Normalization<CardName> } | { unknown: UnknownCardName } {
  const { text, changes } = cleanText(input);
  const exactKey = keyOfCatalogueName(text);
  if (exactKey !== undefined) {
    return { known: known(input, { name: text, key: exactKey }, changes, text === input ? 1 : CONFIDENCE_RESPELLED) };
  }
  if (text === '') {
    return { known: { value: { name: '', key: '' }, input, changes, confidence: 0, warnings: ['empty card name'], recognized: false } };
  }

  const reading = readCardKey(text);
  const literalName = catalogueNameOfKey(reading.key);
  const alternateName = reading.alternateKey === null ? undefined : catalogueNameOfKey(reading.alternateKey);
  if (literalName !== undefined && alternateName !== undefined && reading.alternateKey !== null) {
    return {
      known: {
        ...known(input, { name: literalName, key: reading.key }, [...changes, respelled(text, literalName)], CONFIDENCE_EX_AMBIGUOUS),
        warnings: [
          `"${text}" could be "${literalName}" or "${alternateName}" (ex and EX are different cards); ` +
            `kept the reading as typed, "${literalName}"`,
        ],
      },
    };
  }
  if (literalName !== undefined) {
    return { known: known(input, { name: literalName, key: reading.key }, [...changes, respelled(text, literalName)], CONFIDENCE_RESPELLED) };
  }
  if (alternateName !== undefined && reading.alternateKey !== null) {
    const exChange = `read the ex/EX of "${text}" as in "${alternateName}", the only catalogue card it can be`;
    return { known: known(input, { name: alternateName, key: reading.alternateKey }, [...changes, exChange], CONFIDENCE_EX_GUESSED) };
  }
  const bracketed = bracketedCatalogueKey(reading.key);
  const bracketedName = bracketed === undefined ? undefined : catalogueNameOfKey(bracketed);
  if (bracketed !== undefined && bracketedName !== undefined) {
    return { known: known(input, { name: bracketedName, key: bracketed }, [...changes, respelled(text, bracketedName)], CONFIDENCE_EX_GUESSED) };
  }
  return { unknown: { input, text, changes, reading } };
}

/**
 * An unknown name kept as given, flagged: `warning` says why when the caller knows better than the
 * default (`did you mean "…"?` with the closest catalogue name).
 */
export function unknownCardName({ input, text, changes, reading }: UnknownCardName, warning?: string): Normalization<CardName> {
  const suggestion = warning === undefined ? suggest(reading.key) : undefined;
  return {
    value: { name: text, key: reading.key },
    input,
    changes,
    confidence: CONFIDENCE_UNKNOWN,
    warnings: [warning ?? `unknown card name "${text}" kept as given${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`],
    recognized: false,
  };
}

function known(input: string, value: CardName, changes: string[], confidence: number): Normalization<CardName> {
  return { value, input, changes, confidence, warnings: [], recognized: true };
}

function respelled(text: string, catalogueName: string): string {
  return `spelled "${text}" as the catalogue does: "${catalogueName}"`;
}

/** The closest catalogue name, trying the other ex/EX reading first since case is easy to mistype. */
function suggest(key: string): string | undefined {
  const flipped = key
    .split(' ')
    .map((t) => (t === 'ex' ? 'EX' : t === 'EX' ? 'ex' : t))
    .join(' ');
  const direct = flipped === key ? undefined : catalogueNameOfKey(flipped);
  if (direct !== undefined) return direct;
  const [closest] = similarCardNames(key, { minSimilarity: SUGGESTION_SIMILARITY, limit: 1 });
  return closest === undefined ? undefined : catalogueNameOfKey(closest);
}
