// The widget's public schemas refuse with sentences a buyer understands — the widget shows them
// next to the field or the line — never zod's own texts ("Too big: expected number to be
// <=100000000"); the price ceiling is said as money in the list's currency.
import type { z } from 'zod';

import { resolveWantListBody, wantListBody } from './want-list.schemas';

/** zod's own wording, which must never reach a buyer. */
const RAW = /expected|Too big|Too small|Invalid input|Invalid string|Unrecognized|must have|received|<=|>=/i;

function issues(schema: z.ZodType, body: unknown): Array<[string, string]> {
  const result = schema.safeParse(body);
  if (result.success) throw new Error(`expected a refusal of ${JSON.stringify(body)}`);
  return result.error.issues.map((i) => [i.path.join('.'), i.message]);
}

const OK = { items: [{ cardName: 'Charizard' }], email: 'sam@example.com' };
const item = (fields: Record<string, unknown>) => ({ ...OK, items: [{ cardName: 'Charizard', ...fields }] });

describe('the want list body', () => {
  it('says the price ceiling as money in the list\'s currency', () => {
    expect(issues(wantListBody, item({ maxPrice: 1_000_000_000 }))).toEqual([['items.0.maxPrice', 'Enter a price up to $100,000,000.00']]);
    expect(issues(wantListBody, { ...item({ maxPrice: 100_000_000.01 }), currency: 'eur' })).toEqual([['items.0.maxPrice', 'Enter a price up to €100,000,000.00']]);
    expect(issues(wantListBody, { ...item({ maxPrice: 2e8 }), currency: 'GBP' })).toEqual([['items.0.maxPrice', 'Enter a price up to £100,000,000.00']]);
    expect(wantListBody.safeParse(item({ maxPrice: 100_000_000 })).success).toBe(true);
  });

  it.each([
    ['a price of 0', item({ maxPrice: 0 }), 'items.0.maxPrice', 'Enter a price above 0, or none for any price'],
    ['a negative price', item({ maxPrice: -5 }), 'items.0.maxPrice', 'Enter a price above 0, or none for any price'],
    ['a price as text', item({ maxPrice: '12 dollars' }), 'items.0.maxPrice', 'Enter the price as a number, like 12.50'],
    ['a price with 3 decimals', item({ maxPrice: 12.345 }), 'items.0.maxPrice', 'Use at most 2 decimals in a price'],
    ['no card name', item({ cardName: '  ' }), 'items.0.cardName', 'Enter the card you are looking for'],
    ['a card name too long', item({ cardName: 'x'.repeat(201) }), 'items.0.cardName', 'A card name is at most 200 characters'],
    ['an empty set', item({ setName: '' }), 'items.0.setName', 'Enter the set, or none for any printing'],
    ['a set too long', item({ setName: 'x'.repeat(201) }), 'items.0.setName', 'A set name is at most 200 characters'],
    ['an unknown condition', item({ condition: 'Shiny' }), 'items.0.condition', expect.stringMatching(/^Choose a condition: Mint \(M\), Near Mint \(NM\)/)],
    ['a quantity of 0', item({ quantity: 0 }), 'items.0.quantity', 'Enter how many you want, from 1 to 99'],
    ['a quantity of 100', item({ quantity: 100 }), 'items.0.quantity', 'Enter how many you want, from 1 to 99'],
    ['half a card', item({ quantity: 1.5 }), 'items.0.quantity', 'Enter how many you want, from 1 to 99'],
    ['no cards', { ...OK, items: [] }, 'items', 'Add a card'],
    ['26 cards', { ...OK, items: Array.from({ length: 26 }, () => ({ cardName: 'Onix' })) }, 'items', 'A want list is at most 25 cards'],
    ['no email', { items: OK.items }, 'email', 'Enter your email address'],
    ['a bad email', { ...OK, email: 'sam@' }, 'email', 'Enter a valid email address, like name@example.com'],
    ['a long email', { ...OK, email: `${'s'.repeat(250)}@example.com` }, 'email', 'An email address is at most 254 characters'],
    ['a long note', { ...OK, note: 'x'.repeat(501) }, 'note', 'A note is at most 500 characters'],
    ['a bad currency', { ...OK, currency: 'dollars' }, 'currency', "The shop's currency must be a 3-letter code such as USD"],
    ['an unknown field', { ...OK, colour: 'red' }, '', 'Unknown field "colour": a want list has items, currency, email, note and website'],
    ['an unknown card field', item({ colour: 'red' }), 'items.0', 'Unknown field "colour": a wanted card has cardName, setName, condition, maxPrice and quantity'],
    ['not an object', ['Charizard'], '', 'Send a want list as a JSON object'],
  ])('refuses %s in words', (_what, body, path, message) => {
    const found = issues(wantListBody, body);
    expect(found).toContainEqual([path, message]);
    for (const [, text] of found) expect(text).not.toMatch(RAW);
  });

  it('answers a whole bad list with one sentence per field, none of them raw', () => {
    const found = issues(wantListBody, { items: [{ cardName: '', maxPrice: 'x', quantity: 0, condition: 42 }], email: 7, note: 3, currency: 1, website: 5 });
    expect(found.length).toBeGreaterThanOrEqual(6);
    for (const [, text] of found) expect(text).not.toMatch(RAW);
  });
});

describe('the pasted list body', () => {
  it('refuses too long a list, or no text, in words', () => {
    expect(issues(resolveWantListBody, { text: 'x'.repeat(20_000) })).toEqual([['text', 'Your list is too long: at most 25 lines of up to 300 characters']]);
    expect(issues(resolveWantListBody, {})).toEqual([['text', 'Write your want list, one card per line']]);
    expect(issues(resolveWantListBody, { text: 'Charizard', currency: 'usdollar' })).toEqual([['currency', "The shop's currency must be a 3-letter code such as USD"]]);
  });
});
