// The paste parser: the forms collectors use, one card per line, and garbage lines (a clear
// per-line error, never an exception).
import { isWantLineError, MAX_WANT_LINES, parseWantLine, parseWantList } from './want-list-parse';

const read = (text: string) => {
  const r = parseWantLine(text);
  if (isWantLineError(r)) throw new Error(`expected a reading of ${text}, got ${r.error.message}`);
  const { line: _line, text: _text, ...rest } = r;
  return rest;
};

describe('parseWantLine', () => {
  it('reads `4 Charizard Base NM`: quantity, card, set, condition', () => {
    expect(read('4 Charizard Base NM')).toEqual({ quantity: 4, cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPriceMinor: null, currency: null });
  });

  it('reads `Pikachu (Jungle) LP $12`: the set in brackets, the price with its currency', () => {
    expect(read('Pikachu (Jungle) LP $12')).toEqual({ quantity: 1, cardName: 'Pikachu', setName: 'Jungle', condition: 'LP', maxPriceMinor: 1200, currency: 'USD' });
  });

  it('reads the card alone: any printing, condition and price', () => {
    expect(read('Dark Charizard')).toEqual({ quantity: 1, cardName: 'Dark Charizard', setName: null, condition: null, maxPriceMinor: null, currency: null });
  });

  it('reads separated fields, in any order after the card', () => {
    expect(read('Charizard, Base Set, PSA 9, 450 USD')).toEqual({ quantity: 1, cardName: 'Charizard', setName: 'Base Set', condition: 'PSA 9', maxPriceMinor: 45000, currency: 'USD' });
    expect(read('Blastoise\tNear Mint\tBase')).toMatchObject({ cardName: 'Blastoise', setName: 'Base', condition: 'Near Mint' });
    expect(read('Venusaur - Base - LP')).toMatchObject({ cardName: 'Venusaur', setName: 'Base', condition: 'LP' });
  });

  it('reads quantities, bullets, multi-word conditions and price words', () => {
    expect(read('2x Charizard Base Near Mint max 300')).toMatchObject({ quantity: 2, cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPriceMinor: 30000, currency: null });
    expect(read('x3 Mewtwo [Base] @ 12.50')).toMatchObject({ quantity: 3, cardName: 'Mewtwo', setName: 'Base', maxPriceMinor: 1250 });
    expect(read('- Charizard BS PSA 10 €99')).toMatchObject({ quantity: 1, cardName: 'Charizard', setName: 'BS', condition: 'PSA 10', maxPriceMinor: 9900, currency: 'EUR' });
    expect(read('1. Gyarados Base')).toMatchObject({ quantity: 1, cardName: 'Gyarados', setName: 'Base' });
  });

  it('keeps an unknown set in brackets as typed (the catalogue flags it later), and a typo in the card', () => {
    expect(read('Chairzard (Jungel)')).toMatchObject({ cardName: 'Chairzard', setName: 'Jungel' });
    expect(read('Chairzard Base')).toMatchObject({ cardName: 'Chairzard', setName: 'Base' });
  });

  it('does not take a number in a card name for a price', () => {
    expect(read('Porygon2')).toMatchObject({ cardName: 'Porygon2', maxPriceMinor: null });
  });

  it.each([
    ['$12', 'NO_CARD_NAME'],
    ['4 NM', 'NO_CARD_NAME'],
    ['!!!! ???', 'NO_CARD_NAME'],
    ['12345', 'NO_CARD_NAME'],
    ['Charizard $1.2.3.4', 'UNREADABLE_PRICE'],
    ['Charizard $0', 'UNREADABLE_PRICE'],
    ['500 Charizard', 'UNREADABLE_QUANTITY'],
    ['Charizard, Base, NM, Jungle', 'UNKNOWN_PART'],
    ['x'.repeat(400), 'LINE_TOO_LONG'],
  ])('answers %j with the error %s', (line, code) => {
    const r = parseWantLine(line, 7);
    expect(isWantLineError(r) && r.error.code).toBe(code);
    expect(isWantLineError(r) && r.error.message.length).toBeGreaterThan(5);
    expect(r.line).toBe(7);
  });
});

describe('parseWantList', () => {
  it('reads one card per line, skipping blank lines but keeping their numbers', () => {
    const { lines, extraLines } = parseWantList('4 Charizard Base NM\r\n\n  Pikachu (Jungle) LP $12\n###\n');
    expect(lines.map((l) => [l.line, isWantLineError(l) ? l.error.code : l.cardName])).toEqual([
      [1, 'Charizard'],
      [3, 'Pikachu'],
      [4, 'NO_CARD_NAME'],
    ]);
    expect(extraLines).toBe(0);
  });

  it(`reads at most ${MAX_WANT_LINES} lines and says how many more there were`, () => {
    const { lines, extraLines } = parseWantList(Array.from({ length: 30 }, (_, i) => `Card ${i}`).join('\n'));
    expect(lines).toHaveLength(MAX_WANT_LINES);
    expect(extraLines).toBe(5);
  });

  it('never throws on hostile input', () => {
    for (const text of ['', '\n\n', '(((', ')', '[', '$$$', '¥¥', '\u0000', 'a'.repeat(100_000), '1x', '  ,,, ;; ||']) {
      expect(() => parseWantList(text)).not.toThrow();
    }
  });
});
