import { normalizePrice } from '@app/catalog';

describe('normalizePrice', () => {
  it.each<[string | number, number, string | null, string[]]>([
    ['$1,234.50', 123450, 'USD', ['read "$" as USD']],
    ['1.234,50 €', 123450, 'EUR', ['read "€" as EUR', 'read "," as the decimal separator']],
    ['1 234,50 €', 123450, 'EUR', ['read "€" as EUR', 'read "," as the decimal separator']],
    ['1.234.567,89', 123456789, null, ['read "," as the decimal separator']],
    ["CHF 1'234.50", 123450, 'CHF', ['read "CHF" as CHF']],
    ['12', 1200, null, []],
    ['1234.5', 123450, null, []],
    ['€12', 1200, 'EUR', ['read "€" as EUR']],
    ['£3.99', 399, 'GBP', ['read "£" as GBP']],
    ['USD 12', 1200, 'USD', ['read "USD" as USD']],
    ['12.50 usd', 1250, 'USD', ['read "usd" as USD']],
    ['US$ 7', 700, 'USD', ['read "US$" as USD']],
    ['C$10', 1000, 'CAD', ['read "C$" as CAD']],
    ['$12 USD', 1200, 'USD', ['read "USD" as USD']],
    ['12,5', 1250, null, ['read "," as the decimal separator']],
    ['0.07', 7, null, []],
    ['.5', 50, null, []],
    ['0', 0, null, []],
    ['  19.99  ', 1999, null, []],
    [12.5, 1250, null, []],
    [12, 1200, null, []],
    [19.99, 1999, null, []],
    [0.07, 7, null, []],
    [1234567890123.45, 123456789012345, null, []],
  ])('%j → %d %s', (input, amountMinor, currency, changes) => {
    expect(normalizePrice(input)).toEqual({
      value: { amountMinor, currency },
      input: String(input),
      changes,
      confidence: 1,
      warnings: [],
      recognized: true,
    });
  });

  it('reads a lone comma before three digits as thousands, with lower confidence', () => {
    expect(normalizePrice('1,234')).toMatchObject({
      value: { amountMinor: 123400, currency: null },
      changes: ['read "," as a thousands separator'],
      confidence: 0.9,
      recognized: true,
    });
  });

  it.each<[string | number, string]>([
    ['abc', 'unparseable price "abc"'],
    ['', 'empty price'],
    ['   ', 'empty price'],
    ['-5', 'negative price "-5"'],
    ['$-5', 'negative price "$-5"'],
    [-1, 'negative price -1'],
    ['12.345', 'price "12.345" has more than 2 decimals'],
    ['0,125', 'price "0,125" has more than 2 decimals'],
    [12.345, 'price "12.345" has more than 2 decimals'],
    [0.1 + 0.2, 'price "0.30000000000000004" has more than 2 decimals'],
    [1e-7, 'price 1e-7 has more than 2 decimals'],
    [1e21, 'price 1e+21 is too large'],
    ['99999999999999', 'price "99999999999999" is too large'],
    [Number.NaN, 'NaN is not a price'],
    [Number.POSITIVE_INFINITY, 'Infinity is not a price'],
    ['$12 EUR', 'price "$12 EUR" names two currencies (EUR, USD)'],
    ['12 xyz', 'unknown currency "xyz" in price "12 xyz"'],
    ['1,23,4', 'unparseable price "1,23,4" (thousands separators in the wrong places)'],
    ['12 5', 'unparseable price "12 5"'],
    ['free', 'unparseable price "free"'],
    ['.', 'unparseable price "."'],
  ])('refuses %j: %s', (input, warning) => {
    expect(normalizePrice(input)).toEqual({
      value: null,
      input: String(input),
      changes: [],
      confidence: 0,
      warnings: [warning],
      recognized: false,
    });
  });

  it('is exact for every cent amount, as a number and as a string (no float off-by-one)', () => {
    for (let cents = 0; cents <= 200_000; cents++) {
      const number = cents / 100;
      const fromNumber = normalizePrice(number).value;
      if (fromNumber?.amountMinor !== cents) throw new Error(`${number} gave ${fromNumber?.amountMinor}, not ${cents}`);
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      const fromText = normalizePrice(text).value;
      if (fromText?.amountMinor !== cents) throw new Error(`"${text}" gave ${fromText?.amountMinor}, not ${cents}`);
    }
  });
});
