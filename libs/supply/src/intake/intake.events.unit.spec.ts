import { intakeRow, isIntakeRow, type IntakeRow, type RawRow } from './intake.events';
import { normalizeRow } from './intake.rows';

const context = { defaultCurrency: 'USD' };
const raws: RawRow[] = [
  { card: 'charizard', set: 'Base Set', cond: 'NM', price: '$450.50', qty: 2, sku: 'S-1', number: '4/102', notes: 'x' },
  { card: 'Pikachuu', set: 'Jungel', cond: 'PSA 9', price: '€12', extra: true },
  { card: '', price: 'free', qty: 0, currency: 'dollars' },
];
const samples: IntakeRow[] = raws.map((raw, i) => ({ ...normalizeRow(raw, context), row: i + 1 }));

/** Every path into a row (objects and leaves), e.g. ['fields', 'priceMinor'], ['issues', 0, 'code']. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, v]) => paths(v, [...prefix, key]))];
}

function withValue(row: IntakeRow, path: Array<string | number>, value: unknown): unknown {
  const copy: unknown = structuredClone(row);
  if (path.length === 0) return value;
  let target: unknown = copy;
  for (const key of path.slice(0, -1)) target = (target as Record<string | number, unknown>)[key];
  const last = path[path.length - 1];
  const holder = target as Record<string | number, unknown>;
  // A deleted array element shortens the array (JSON has no holes).
  if (value === undefined && Array.isArray(target) && typeof last === 'number') target.splice(last, 1);
  else if (value === undefined) delete holder[last];
  else holder[last] = value;
  return copy;
}

const REPLACEMENTS: unknown[] = [undefined, null, 0, 7, 1.5, -1, '', 'valid', true, [], {}, ['x'], { a: 1 }];

describe('isIntakeRow (the fast check of stored rows)', () => {
  it('accepts what normalization produces', () => {
    for (const row of samples) expect(isIntakeRow(JSON.parse(JSON.stringify(row)))).toBe(true);
  });

  it('agrees with the intakeRow schema on every path replaced by every kind of value', () => {
    const disagreements: string[] = [];
    for (const row of samples) {
      for (const path of paths(row)) {
        for (const replacement of REPLACEMENTS) {
          const candidate = withValue(row, path, replacement);
          const expected = intakeRow.safeParse(candidate).success;
          if (isIntakeRow(candidate) !== expected) disagreements.push(`${path.join('.')} = ${JSON.stringify(replacement)}: schema ${expected}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
