import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONDITION_TABLE, conditionClass, conditionScore, normalizeCondition, RAW_GRADES } from '@app/catalog';

describe('normalizeCondition: raw', () => {
  it.each([
    ['Mint', 'M', 1, []],
    ['M', 'M', 0.95, ['expanded "M" to "Mint"']],
    ['Gem Mint', 'M', 0.85, ['read "Gem Mint" as "Mint"']],
    ['NM', 'NM', 0.95, ['expanded "NM" to "Near Mint"']],
    ['NM-M', 'NM', 0.95, ['expanded "NM-M" to "Near Mint"']],
    ['NM/M', 'NM', 0.95, ['expanded "NM/M" to "Near Mint"']],
    ['Near Mint', 'NM', 1, []],
    ['near mint', 'NM', 0.95, ['expanded "near mint" to "Near Mint"']],
    ['near-mint', 'NM', 0.95, ['expanded "near-mint" to "Near Mint"']],
    ['  NEAR   MINT ', 'NM', 0.95, ['trimmed whitespace', 'collapsed whitespace', 'expanded "NEAR MINT" to "Near Mint"']],
    ['NM+', 'NM', 0.85, ['read "NM+" as "Near Mint"']],
    ['LP', 'LP', 0.95, ['expanded "LP" to "Lightly Played"']],
    ['Lightly Played', 'LP', 1, []],
    ['Light Play', 'LP', 0.95, ['expanded "Light Play" to "Lightly Played"']],
    ['Excellent', 'LP', 0.85, ['read "Excellent" as "Lightly Played"']],
    ['EX', 'LP', 0.85, ['read "EX" as "Lightly Played"']],
    ['SP', 'LP', 0.85, ['read "SP" as "Lightly Played"']],
    ['Slightly Played', 'LP', 0.85, ['read "Slightly Played" as "Lightly Played"']],
    ['MP', 'MP', 0.95, ['expanded "MP" to "Moderately Played"']],
    ['Moderately Played', 'MP', 1, []],
    ['Played', 'MP', 0.85, ['read "Played" as "Moderately Played"']],
    ['PL', 'MP', 0.85, ['read "PL" as "Moderately Played"']],
    ['HP', 'HP', 0.95, ['expanded "HP" to "Heavily Played"']],
    ['Heavily Played', 'HP', 1, []],
    ['Heavy Play', 'HP', 0.95, ['expanded "Heavy Play" to "Heavily Played"']],
    ['DMG', 'DMG', 0.95, ['expanded "DMG" to "Damaged"']],
    ['Damaged', 'DMG', 1, []],
    ['Poor', 'DMG', 0.85, ['read "Poor" as "Damaged"']],
  ])('%j → %s (confidence %d)', (input, code, confidence, changes) => {
    const grade = RAW_GRADES.find((g) => g.code === code);
    expect(normalizeCondition(input)).toEqual({
      value: { kind: 'raw', code, rank: grade?.rank, label: grade?.label },
      input,
      changes,
      confidence,
      warnings: [],
      recognized: true,
    });
  });

  it('ranks the raw scale Mint 6 … Damaged 1', () => {
    expect(RAW_GRADES.map((g) => [g.code, g.rank, g.label])).toEqual([
      ['M', 6, 'Mint'],
      ['NM', 5, 'Near Mint'],
      ['LP', 4, 'Lightly Played'],
      ['MP', 3, 'Moderately Played'],
      ['HP', 2, 'Heavily Played'],
      ['DMG', 1, 'Damaged'],
    ]);
  });

  it('is documented in docs/conditions.md exactly as the code reads it', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/conditions.md'), 'utf8');
    for (const grade of RAW_GRADES) {
      const spellings = CONDITION_TABLE.filter((row) => row.code === grade.code)
        .map((row) => `\`${row.spelling}\`${row.synonym ? '*' : ''}`)
        .join(', ');
      expect(doc).toContain(`| ${grade.label} | ${grade.code} | ${grade.rank} | ${spellings} |`);
    }
  });

  it.each(CONDITION_TABLE.map((row) => [row.spelling, row.code] as const))(
    'documented spelling %j resolves to %s',
    (spelling, code) => {
      const result = normalizeCondition(spelling);
      expect(result.value).toMatchObject({ kind: 'raw', code });
      expect(normalizeCondition(spelling.toLowerCase()).value).toEqual(result.value);
    },
  );
});

describe('normalizeCondition: graded', () => {
  it.each([
    ['PSA 10', 'PSA', 10, []],
    ['psa10', 'PSA', 10, ['read "psa10" as "PSA 10"']],
    ['PSA-9.5', 'PSA', 9.5, ['read "PSA-9.5" as "PSA 9.5"']],
    ['psa 9.5', 'PSA', 9.5, ['read "psa 9.5" as "PSA 9.5"']],
    ['PSA 9,5', 'PSA', 9.5, ['read "PSA 9,5" as "PSA 9.5"']],
    ['BGS 9.5', 'BGS', 9.5, []],
    ['Beckett 9.5', 'BGS', 9.5, ['read "Beckett 9.5" as "BGS 9.5"']],
    ['CGC 8.5', 'CGC', 8.5, []],
    ['SGC 10', 'SGC', 10, []],
    ['PSA 1', 'PSA', 1, []],
    ['PSA 10.0', 'PSA', 10, ['read "PSA 10.0" as "PSA 10"']],
    ['PSA Gem Mint 10', 'PSA', 10, ['read "PSA Gem Mint 10" as "PSA 10" (dropped the grade name "gem mint")']],
    ['PSA GEM-MT 10', 'PSA', 10, ['read "PSA GEM-MT 10" as "PSA 10" (dropped the grade name "gem mt")']],
  ])('%j → %s %d', (input, company, grade, changes) => {
    const result = normalizeCondition(input);
    expect(result.value).toEqual({ kind: 'graded', company, grade, label: `${company} ${grade}` });
    expect(result).toMatchObject({ changes, recognized: true, warnings: [], confidence: changes.length ? 0.95 : 1 });
  });

  it.each(['PSA 9.3', 'PSA 11', 'PSA 0', 'BGS 10.5', 'CGC 0.5'])('refuses the off-scale grade %j, kept as unknown', (input) => {
    const result = normalizeCondition(input);
    expect(result).toMatchObject({ value: { kind: 'unknown', label: input }, recognized: false });
    expect(result.warnings[0]).toContain('grades run 1 to 10 in half steps');
  });
});

describe('normalizeCondition: unknown', () => {
  it.each([
    ['mint-ish', 'mint-ish'],
    ['  Sealed  ', 'Sealed'],
    ['XYZ 10', 'XYZ 10'],
    ['PSA', 'PSA'],
  ])('keeps %j verbatim as %j, flagged', (input, label) => {
    const result = normalizeCondition(input);
    expect(result).toMatchObject({ value: { kind: 'unknown', label }, recognized: false, warnings: [`unknown condition "${label}" kept as given`] });
    expect(result.confidence).toBeLessThan(0.5);
  });

  it('flags an empty condition', () => {
    expect(normalizeCondition('')).toMatchObject({ value: { kind: 'unknown', label: '' }, recognized: false, warnings: ['empty condition'] });
  });
});

describe('conditionClass and conditionScore', () => {
  it.each([
    ['Near Mint', 'raw', 5],
    ['DMG', 'raw', 1],
    ['Mint', 'raw', 6],
    ['PSA 9.5', 'graded', 9.5],
    ['CGC 10', 'graded', 10],
    ['  Sealed   Pack ', 'unknown:sealed pack', 0],
    ['Crème-Brûlée', 'unknown:creme brulee', 0],
  ])('%j is %j scoring %d', (input, cls, score) => {
    const { value } = normalizeCondition(input);
    expect(conditionClass(value)).toBe(cls);
    expect(conditionScore(value)).toBe(score);
  });

  it.each(['NM', 'near mint', 'PSA 10', 'psa gem mint 10', 'Sealed', 'Excellent'])('is idempotent for %j', (input) => {
    const once = normalizeCondition(input);
    expect(normalizeCondition(once.value.label).value).toEqual(once.value);
  });
});
