// normalizeCondition: one ordered raw scale (Mint 6 … Damaged 1) plus graded slabs (PSA, BGS,
// CGC, SGC; grades 1-10 in half steps). In a condition field `EX` means Excellent, not the mechanic.
import type { Condition, GradingCompany, Normalization, RawGrade } from './catalog.types';
import { cleanText, foldAccents } from './text';

export interface RawGradeInfo {
  code: RawGrade;
  rank: number;
  label: string;
}

const RAW: Readonly<Record<RawGrade, RawGradeInfo>> = {
  M: { code: 'M', rank: 6, label: 'Mint' },
  NM: { code: 'NM', rank: 5, label: 'Near Mint' },
  LP: { code: 'LP', rank: 4, label: 'Lightly Played' },
  MP: { code: 'MP', rank: 3, label: 'Moderately Played' },
  HP: { code: 'HP', rank: 2, label: 'Heavily Played' },
  DMG: { code: 'DMG', rank: 1, label: 'Damaged' },
};

/** The raw scale, best first. */
export const RAW_GRADES: readonly RawGradeInfo[] = [RAW.M, RAW.NM, RAW.LP, RAW.MP, RAW.HP, RAW.DMG];

export interface ConditionSpelling {
  /** An accepted spelling, as documented (matching ignores case, accents, `-`, `/`, `.`, spacing). */
  spelling: string;
  code: RawGrade;
  /** True when the spelling is another vocabulary's word (`Excellent`, `Poor`), read as the nearest grade. */
  synonym: boolean;
}

const S = (code: RawGrade, synonym: boolean, ...spellings: string[]): ConditionSpelling[] =>
  spellings.map((spelling) => ({ spelling, code, synonym }));

/** Every accepted raw spelling → its grade; docs/conditions.md lists the same table. */
export const CONDITION_TABLE: readonly ConditionSpelling[] = [
  ...S('M', false, 'M', 'Mint', 'MT'),
  ...S('M', true, 'Gem Mint', 'GEM-MT'),
  ...S('NM', false, 'NM', 'Near Mint', 'near-mint', 'NM-M', 'NM/M', 'NM-MT', 'Near Mint-Mint'),
  ...S('NM', true, 'NM+', 'Near Mint+'),
  ...S('LP', false, 'LP', 'Lightly Played', 'Light Play', 'Light Played'),
  ...S('LP', true, 'Excellent', 'EX', 'EXC', 'SP', 'Slightly Played'),
  ...S('MP', false, 'MP', 'Moderately Played', 'Moderate Play'),
  ...S('MP', true, 'Played', 'PL'),
  ...S('HP', false, 'HP', 'Heavily Played', 'Heavy Play', 'Heavy Played'),
  ...S('DMG', false, 'DMG', 'Damaged', 'DM'),
  ...S('DMG', true, 'Poor'),
];

export const GRADING_COMPANIES: ReadonlyArray<{ company: GradingCompany; spellings: readonly string[] }> = [
  { company: 'PSA', spellings: ['psa'] },
  { company: 'BGS', spellings: ['bgs', 'beckett'] },
  { company: 'CGC', spellings: ['cgc'] },
  { company: 'SGC', spellings: ['sgc'] },
];

const SPELLING_BY_FOLD = new Map(CONDITION_TABLE.map((s) => [foldCondition(s.spelling), s]));
const COMPANY_BY_FOLD = new Map(GRADING_COMPANIES.flatMap((c) => c.spellings.map((s) => [s, c.company] as const)));
// `PSA 10`, `psa10`, `PSA-9.5`, `PSA Gem Mint 10`, `BGS Pristine 10`: company, optional words, grade.
// Words are whitespace-separated so the pattern cannot backtrack exponentially.
const GRADED = /^([a-z]+)\s*((?:[a-z+]+\s+)*)(\d+(?:\.\d+)?)$/;

/**
 * Lower case, accents folded, decimal commas → points, any other punctuation or spacing → one
 * space: `NM-M` → `nm m`, `PSA-9,5` → `psa 9.5`.
 */
function foldCondition(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/(\d),(\d)/g, '$1.$2')
    .replace(/\.(?!\d)|(?<!\d)\./g, ' ')
    .replace(/[^\p{L}\p{N}+.]+/gu, ' ')
    .trim();
}

export function rawCondition(code: RawGrade): Condition {
  const grade = RAW[code];
  return { kind: 'raw', code: grade.code, rank: grade.rank, label: grade.label };
}

export function gradedCondition(company: GradingCompany, grade: number): Condition {
  return { kind: 'graded', company, grade, label: `${company} ${grade}` };
}

export function normalizeCondition(input: string): Normalization<Condition> {
  const { text, changes } = cleanText(input);
  const folded = foldCondition(text);
  const result = (value: Condition, confidence: number, extra: string[] = [], warnings: string[] = []): Normalization<Condition> => ({
    value,
    input,
    changes: [...changes, ...extra],
    confidence: text === input && extra.length === 0 ? confidence : Math.min(confidence, 0.95),
    warnings,
    recognized: value.kind !== 'unknown',
  });

  const spelling = SPELLING_BY_FOLD.get(folded);
  if (spelling) {
    const value = rawCondition(spelling.code);
    if (text === value.label) return result(value, 1);
    const change = spelling.synonym ? `read "${text}" as "${value.label}"` : `expanded "${text}" to "${value.label}"`;
    return result(value, spelling.synonym ? 0.85 : 0.95, [change]);
  }

  const graded = GRADED.exec(folded);
  const company = graded ? COMPANY_BY_FOLD.get(graded[1]) : undefined;
  if (graded && company) {
    const grade = Number(graded[3]);
    const label = `${company} ${graded[3]}`;
    if (!(grade >= 1 && grade <= 10 && Number.isInteger(grade * 2))) {
      return result({ kind: 'unknown', label: text }, 0.3, [], [
        `"${text}" reads as ${label} but grades run 1 to 10 in half steps; kept as given`,
      ]);
    }
    const value = gradedCondition(company, grade);
    if (text === value.label) return result(value, 1);
    const words = graded[2].trim();
    const extra = [`read "${text}" as "${value.label}"${words ? ` (dropped the grade name "${words}")` : ''}`];
    return result(value, 0.95, extra);
  }

  return result({ kind: 'unknown', label: text }, text === '' ? 0 : 0.3, [], [
    text === '' ? 'empty condition' : `unknown condition "${text}" kept as given`,
  ]);
}

/** 'raw' | 'graded' | `unknown:<folded label>`: conditions in one class compare on one scale. */
export function conditionClass(c: Condition): string {
  return c.kind === 'unknown' ? `unknown:${foldCondition(c.label)}` : c.kind;
}

/** Raw rank (Damaged 1 … Mint 6), graded grade (1-10), 0 when unknown. */
export function conditionScore(c: Condition): number {
  return c.kind === 'raw' ? c.rank : c.kind === 'graded' ? c.grade : 0;
}

/** The folded comparison form of a condition label (used to compare unknown conditions). */
export function foldConditionLabel(label: string): string {
  return foldCondition(label);
}
