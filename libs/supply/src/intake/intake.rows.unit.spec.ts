import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CATALOGUE_DATA_DIR } from '@app/testing/support/catalogue-data';

import { parseCsv } from './intake.csv';
import type { NormalizedRow, RawRow } from './intake.events';
import { fieldOfColumn, normalizeRow } from './intake.rows';

const context = { defaultCurrency: 'USD' };
const base = { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: '450.50' };

const codes = (row: NormalizedRow) => row.issues.map((i) => `${i.severity}:${i.field}:${i.code}`);

describe('intake row columns', () => {
  it.each([
    ['cardName', 'cardName'],
    ['card_name', 'cardName'],
    ['Card Name', 'cardName'],
    ['CARD', 'cardName'],
    ['name', 'cardName'],
    ['setName', 'setName'],
    ['Set', 'setName'],
    ['set_name', 'setName'],
    ['expansion', 'setName'],
    ['cond', 'condition'],
    ['Grade', 'condition'],
    ['Price', 'price'],
    ['amount', 'price'],
    ['currency', 'currency'],
    ['qty', 'quantity'],
    ['Count', 'quantity'],
    ['SKU', 'sku'],
    ['number', 'cardNumber'],
    ['card_number', 'cardNumber'],
    ['No.', 'cardNumber'],
    ['notes', 'notes'],
    ['rarity', null],
    ['card id', null],
  ])('reads the column %p as %p', (column, field) => {
    expect(fieldOfColumn(column)).toBe(field);
  });
});

describe('intake row normalization', () => {
  it('normalizes a clean row: catalogue spellings, price in minor units, defaults said in changes', () => {
    const row = normalizeRow({ 'Card Name': 'charizard', Set: 'Base Set', Condition: 'NM', Price: '$1,234.50', Qty: '2' }, context);
    expect(row.status).toBe('valid');
    expect(row.fields).toEqual({
      cardName: 'Charizard',
      setName: 'Base',
      condition: 'Near Mint',
      priceMinor: 123450,
      currency: 'USD',
      quantity: 2,
      sku: null,
      cardNumber: null,
      notes: null,
    });
    expect(row.input).toEqual({ cardName: 'charizard', setName: 'Base Set', condition: 'NM' });
    expect(row.match).toMatchObject({ cardKey: 'charizard', setKey: 'base1', matchKey: 'base1|charizard', conditionClass: 'raw' });
    expect(row.changes.condition).toEqual(['expanded "NM" to "Near Mint"']);
    expect(row.changes.currency).toEqual(['USD taken from the price']);
    expect(row.confidence).toBeGreaterThan(0.5);
    expect(row.confidence).toBeLessThanOrEqual(1);
    expect(row.issues).toEqual([]);
  });

  it.each<[string, RawRow, string[]]>([
    ['no card name', { ...base, cardName: '  ' }, ['error:cardName:MISSING_CARD_NAME']],
    ['no set', { ...base, setName: '' }, ['error:setName:MISSING_SET_NAME']],
    ['no condition', { ...base, condition: null }, ['error:condition:MISSING_CONDITION']],
    ['no price', { cardName: 'Charizard', setName: 'Base', condition: 'NM' }, ['error:price:MISSING_PRICE']],
    ['an unparseable price', { ...base, price: 'twelve' }, ['error:price:INVALID_PRICE']],
    ['a negative price', { ...base, price: '-5' }, ['error:price:INVALID_PRICE']],
    ['three decimals', { ...base, price: '12.345' }, ['error:price:INVALID_PRICE']],
    ['quantity 0', { ...base, qty: 0 }, ['error:quantity:INVALID_QUANTITY']],
    ['quantity 1.5', { ...base, qty: '1.5' }, ['error:quantity:INVALID_QUANTITY']],
    ['quantity -2', { ...base, quantity: '-2' }, ['error:quantity:INVALID_QUANTITY']],
    ['quantity "a few"', { ...base, quantity: 'a few' }, ['error:quantity:INVALID_QUANTITY']],
    ['quantity over the inventory bound', { ...base, quantity: 100_001 }, ['error:quantity:INVALID_QUANTITY']],
    ['a bad currency code', { ...base, currency: 'dollars' }, ['error:currency:INVALID_CURRENCY']],
    ['a currency named like an object property', { ...base, currency: 'constructor' }, ['error:currency:INVALID_CURRENCY']],
    ['a currency that contradicts the price', { ...base, price: '€12', currency: 'USD' }, ['error:currency:CURRENCY_CONFLICT']],
    ['an over-long card name', { ...base, cardName: 'x'.repeat(201) }, ['error:cardName:TOO_LONG']],
    ['over-long notes', { ...base, notes: 'n'.repeat(2001) }, ['error:notes:TOO_LONG']],
  ])('marks a row with %s as an error', (_label, raw, expected) => {
    const row = normalizeRow(raw, context);
    expect(row.status).toBe('error');
    expect(codes(row).filter((c) => c.startsWith('error:'))).toEqual(expected);
  });

  it.each<[string, RawRow, string]>([
    ['an unknown column', { ...base, rarity: 'Rare Holo' }, 'warning:rarity:UNKNOWN_COLUMN'],
    ['an unknown set (kept verbatim)', { ...base, setName: 'Jungel' }, 'warning:setName:UNKNOWN_SET'],
    ['an unknown condition (kept verbatim)', { ...base, condition: 'so-so' }, 'warning:condition:UNKNOWN_CONDITION'],
    ['an unknown card name (kept verbatim)', { ...base, cardName: 'Charizarddd' }, 'warning:cardName:UNKNOWN_CARD_NAME'],
    ['two columns for one field', { ...base, card: 'Blastoise' }, 'warning:card:DUPLICATE_COLUMN'],
  ])('marks a row with %s as a warning, still pushable', (_label, raw, expected) => {
    const row = normalizeRow(raw, context);
    expect(row.status).toBe('warning');
    expect(codes(row)).toContain(expected);
    expect(row.issues.every((i) => i.severity === 'warning')).toBe(true);
  });

  it('keeps unknown values verbatim and flags them in the matching identity', () => {
    const row = normalizeRow({ ...base, setName: 'Jungel', condition: 'so-so' }, context);
    expect(row.fields.setName).toBe('Jungel');
    expect(row.fields.condition).toBe('so-so');
    expect(row.match?.setKey.startsWith('?')).toBe(true);
    expect(row.match?.conditionClass.startsWith('unknown')).toBe(true);
    expect(row.issues.find((i) => i.code === 'UNKNOWN_SET')?.message).toContain('Jungle');
    expect(row.confidence).toBeLessThan(0.5);
  });

  it.each<[string, RawRow, string]>([
    ['the price symbol', { ...base, price: '€12' }, 'EUR'],
    ['the currency column (any case)', { ...base, currency: 'gbp' }, 'GBP'],
    ['both when they agree', { ...base, price: '12 EUR', currency: 'EUR' }, 'EUR'],
    ['the session default', { ...base }, 'CAD'],
  ])('takes the currency from %s', (_label, raw, currency) => {
    const row = normalizeRow(raw, { defaultCurrency: 'CAD' });
    expect(row.fields.currency).toBe(currency);
    expect(row.status).toBe('valid');
  });

  it('reads numbers as numbers and defaults the quantity to 1', () => {
    const row = normalizeRow({ ...base, price: 12.5, sku: 'A-1', number: 4, notes: ' first edition ' }, context);
    expect(row.fields).toMatchObject({ priceMinor: 1250, quantity: 1, sku: 'A-1', cardNumber: '4', notes: 'first edition' });
    expect(row.changes.quantity).toEqual(['none given: 1']);
  });

  it('accepts whole quantities written as text', () => {
    expect(normalizeRow({ ...base, qty: ' 3 ' }, context).fields.quantity).toBe(3);
    expect(normalizeRow({ ...base, qty: '2.0' }, context).fields.quantity).toBe(2);
  });

  it('keeps the raw row as given', () => {
    const raw = { 'Card Name': ' charizard ', price: 1, extra: null };
    expect(normalizeRow(raw, context).raw).toEqual(raw);
  });

  it('corrects a name one letter or a space off the one card the set prints, in the row\'s changes', () => {
    const typo = normalizeRow({ ...base, cardName: 'Chairzard' }, context);
    expect(typo).toMatchObject({ status: 'valid', fields: { cardName: 'Charizard' }, match: { cardKey: 'charizard', matchKey: 'base1|charizard' } });
    expect(typo.changes.cardName).toEqual(['corrected "Chairzard" to "Charizard" (one letter off)']);
    expect(typo.confidence).toBe(0.8);
    const fused = normalizeRow({ ...base, cardName: 'ZekromGX', setName: 'SM Black Star Promos' }, context);
    expect(fused.fields.cardName).toBe('Zekrom-GX');
    expect(fused.changes.cardName).toEqual(['corrected "ZekromGX" to "Zekrom-GX" (spacing)']);
  });

  it('keeps a name two cards of the set are as close to, flagged with both', () => {
    const row = normalizeRow({ ...base, cardName: 'Nidorine', setName: 'TM' }, context);
    expect(row.fields.cardName).toBe('Nidorine');
    expect(row.issues).toContainEqual({
      field: 'cardName',
      severity: 'warning',
      code: 'UNKNOWN_CARD_NAME',
      message: 'unknown card name "Nidorine" kept as given: "Nidorina" and "Nidorino" are both one letter off, so it was not corrected',
    });
  });

  it('takes the lowest confidence of the fields', () => {
    const sure = normalizeRow(base, context);
    const unsure = normalizeRow({ ...base, cardName: 'Charizardd' }, context);
    expect(unsure.confidence).toBeLessThan(sure.confidence);
    expect(normalizeRow({ ...base, cardName: '' }, context).confidence).toBe(0);
  });
});

describe('intake rows from the real catalogue (50 cards of cards.csv)', () => {
  const data = CATALOGUE_DATA_DIR;
  const setRows = parseCsv(readFileSync(join(data, 'sets.csv'), 'utf8')).rows;
  const sets = new Map(setRows.map((s) => [s.set_id, s]));
  // Some codes name two sets (a set and its subset): only a unique code identifies a set.
  const codeUses = new Map<string, number>();
  for (const s of setRows) if (s.ptcgo_code) codeUses.set(s.ptcgo_code, (codeUses.get(s.ptcgo_code) ?? 0) + 1);
  const cards = parseCsv(readFileSync(join(data, 'cards.csv'), 'utf8')).rows;
  const sample = Array.from({ length: 50 }, (_, i) => cards[Math.floor((i * cards.length) / 50)]);
  const conditions = ['nm', 'Near Mint', 'LP', 'lightly played', 'PSA 10', 'bgs 9.5', 'MP', 'mint'];

  it.each(sample.map((card, i) => [card.name, card, i] as const))('normalizes %p typed carelessly', (_name, card, i) => {
    const set = sets.get(card.set_id);
    if (!set) throw new Error(`no set ${card.set_id}`);
    const messy: RawRow = {
      // Lower case and padded, as people type; the set by its name or its code when it has one.
      'Card Name': i % 2 === 0 ? `  ${card.name.toLowerCase()} ` : card.name,
      Set: i % 3 === 0 && codeUses.get(set.ptcgo_code) === 1 ? set.ptcgo_code : set.name,
      cond: conditions[i % conditions.length],
      Price: i % 2 === 0 ? `$${i + 1}.50` : String(i + 1),
      number: card.number,
    };
    const row = normalizeRow(messy, context);
    expect(row.status).not.toBe('error');
    expect(row.fields.cardName).toBe(card.name);
    expect(row.fields.setName).toBe(set.name);
    expect(row.fields.cardNumber).toBe(card.number);
    expect(row.match?.setKey).toBe(card.set_id);
    expect(row.fields.priceMinor).toBe((i + 1) * 100 + (i % 2 === 0 ? 50 : 0));
  });
});
