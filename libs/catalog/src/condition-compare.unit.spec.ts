import type { Condition, ConditionFit, GradingCompany, RawGrade } from '@app/catalog';
import { compareCondition, GRADING_COMPANIES, gradedCondition, normalizeCondition, RAW_GRADES, rawCondition } from '@app/catalog';

const c = (text: string): Condition => normalizeCondition(text).value;

describe('compareCondition', () => {
  it.each<[string, string, ConditionFit]>([
    // raw vs raw
    ['NM', 'NM', { verdict: 'meets', margin: 0, sameCompany: false, reason: 'Near Mint matches the requested Near Mint.' }],
    ['NM', 'M', { verdict: 'meets', margin: 1, sameCompany: false, reason: 'Mint is 1 step above the requested Near Mint.' }],
    ['DMG', 'M', { verdict: 'meets', margin: 5, sameCompany: false, reason: 'Mint is 5 steps above the requested Damaged.' }],
    ['NM', 'LP', { verdict: 'near_miss', margin: -1, sameCompany: false, reason: 'Lightly Played is 1 step below the requested Near Mint.' }],
    ['NM', 'MP', { verdict: 'no', margin: -2, sameCompany: false, reason: 'Moderately Played is 2 steps below the requested Near Mint.' }],
    ['M', 'DMG', { verdict: 'no', margin: -5, sameCompany: false, reason: 'Damaged is 5 steps below the requested Mint.' }],
    // graded vs graded
    ['PSA 9', 'PSA 10', { verdict: 'meets', margin: 1, sameCompany: true, reason: 'PSA 10 is 1 grade above the requested PSA 9.' }],
    ['PSA 9', 'BGS 9', { verdict: 'meets', margin: 0, sameCompany: false, reason: 'BGS 9 matches the requested PSA 9.' }],
    ['PSA 9', 'CGC 9.5', { verdict: 'meets', margin: 0.5, sameCompany: false, reason: 'CGC 9.5 is 0.5 grades above the requested PSA 9.' }],
    ['PSA 10', 'PSA 9.5', { verdict: 'near_miss', margin: -0.5, sameCompany: true, reason: 'PSA 9.5 is 0.5 grades below the requested PSA 10.' }],
    ['PSA 10', 'SGC 9', { verdict: 'near_miss', margin: -1, sameCompany: false, reason: 'SGC 9 is 1 grade below the requested PSA 10.' }],
    ['PSA 10', 'PSA 8.5', { verdict: 'no', margin: -1.5, sameCompany: true, reason: 'PSA 8.5 is 1.5 grades below the requested PSA 10.' }],
    // graded request, raw offer
    ['PSA 9', 'Mint', { verdict: 'near_miss', margin: 0, sameCompany: false, reason: 'Mint is a raw card, and the request asks for PSA 9.' }],
    ['PSA 9', 'NM', { verdict: 'near_miss', margin: 0, sameCompany: false, reason: 'Near Mint is a raw card, and the request asks for PSA 9.' }],
    ['PSA 9', 'LP', {
      verdict: 'no',
      margin: 0,
      sameCompany: false,
      reason: 'Lightly Played is a raw card, and the request asks for PSA 9 (only raw Mint or Near Mint come close).',
    }],
    // raw request, graded offer
    ['NM', 'PSA 10', { verdict: 'near_miss', margin: 0, sameCompany: false, reason: 'A graded card (PSA 10) was offered for a request for a raw Near Mint card.' }],
    ['DMG', 'PSA 1', { verdict: 'near_miss', margin: 0, sameCompany: false, reason: 'A graded card (PSA 1) was offered for a request for a raw Damaged card.' }],
    // unknown on either side
    ['Sealed', '  sealed ', { verdict: 'meets', margin: 0, sameCompany: false, reason: '"sealed" is the requested condition "Sealed".' }],
    ['Sealed', 'NM', { verdict: 'no', margin: 0, sameCompany: false, reason: '"Near Mint" cannot be compared with the requested "Sealed" (unrecognised condition).' }],
    ['NM', 'Sealed', { verdict: 'no', margin: 0, sameCompany: false, reason: '"Sealed" cannot be compared with the requested "Near Mint" (unrecognised condition).' }],
    ['PSA 9.3', 'psa 9.3', { verdict: 'meets', margin: 0, sameCompany: false, reason: '"psa 9.3" is the requested condition "PSA 9.3".' }],
  ])('requested %j, offered %j', (requested, offered, expected) => {
    expect(compareCondition(c(requested), c(offered))).toEqual(expected);
  });

  it('writes every reason as one sentence', () => {
    const all = [...RAW_GRADES.map((g) => rawCondition(g.code)), gradedCondition('PSA', 9), gradedCondition('BGS', 7), c('Sealed')];
    for (const requested of all) {
      for (const offered of all) {
        expect(compareCondition(requested, offered).reason).toMatch(/^[A-Z"][^]*\.$/);
      }
    }
  });
});

describe('compareCondition is monotonic', () => {
  const rawCodes: RawGrade[] = RAW_GRADES.map((g) => g.code);
  const halfGrades = Array.from({ length: 19 }, (_, i) => 1 + i / 2);
  const companies: GradingCompany[] = GRADING_COMPANIES.map((g) => g.company);
  const verdictRank = { no: 0, near_miss: 1, meets: 2 } as const;

  it('over all raw ranks: a better offer never fits worse, and meets stays met', () => {
    for (const requested of rawCodes.map(rawCondition)) {
      for (const x of rawCodes.map(rawCondition)) {
        for (const y of rawCodes.map(rawCondition)) {
          if (y.kind !== 'raw' || x.kind !== 'raw' || y.rank < x.rank) continue;
          const fx = compareCondition(requested, x);
          const fy = compareCondition(requested, y);
          if (fx.verdict === 'meets') expect(fy.verdict).toBe('meets');
          expect(verdictRank[fy.verdict]).toBeGreaterThanOrEqual(verdictRank[fx.verdict]);
          expect(fy.margin).toBeGreaterThanOrEqual(fx.margin);
        }
      }
    }
  });

  it('over all half grades and companies: a better offer never fits worse, and meets stays met', () => {
    const violations: string[] = [];
    let checked = 0;
    for (const requested of halfGrades) {
      for (const x of halfGrades) {
        for (const y of halfGrades.filter((g) => g >= x)) {
          for (const company of companies) {
            const fx = compareCondition(gradedCondition('PSA', requested), gradedCondition(company, x));
            const fy = compareCondition(gradedCondition('PSA', requested), gradedCondition(company, y));
            const monotonic = (fx.verdict !== 'meets' || fy.verdict === 'meets') && verdictRank[fy.verdict] >= verdictRank[fx.verdict];
            if (!monotonic || fy.margin !== y - requested) violations.push(`PSA ${requested}: ${company} ${x} ${fx.verdict}, ${y} ${fy.verdict}`);
            checked++;
          }
        }
      }
    }
    expect(violations).toEqual([]);
    expect(checked).toBe(19 * 190 * 4);
  });

  it('a graded request is never met by a raw card, and better raw cards fit at least as well', () => {
    for (const requested of halfGrades) {
      const fits = RAW_GRADES.map((g) => compareCondition(gradedCondition('CGC', requested), rawCondition(g.code)).verdict);
      expect(fits).not.toContain('meets');
      const ranks = fits.map((v) => verdictRank[v]);
      expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    }
  });
});
