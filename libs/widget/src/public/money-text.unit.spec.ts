// Prices in the widget's messages: money in the shop's currency, as the widget's script formats it.
import { formatMoney, MAX_WANT_PRICE, priceTooHighMessage } from './money-text';
import { resolveWantList } from './want-list-resolve';

describe('formatMoney', () => {
  it('formats an amount as money in its currency', () => {
    expect(formatMoney(100_000_000, 'USD')).toBe('$100,000,000.00');
    expect(formatMoney(12.5, 'EUR')).toBe('€12.50');
    expect(formatMoney(1250, 'GBP')).toBe('£1,250.00');
    expect(formatMoney(450, 'CAD')).toBe('CA$450.00');
  });

  it('writes a code Intl cannot format after the number', () => {
    expect(formatMoney(12.5, 'us')).toBe('12.50 us');
  });

  it('says the ceiling of a price', () => {
    expect(MAX_WANT_PRICE).toBe(100_000_000);
    expect(priceTooHighMessage('USD')).toBe('Enter a price up to $100,000,000.00');
  });
});

describe('resolveWantList: prices', () => {
  it('refuses a line over the price ceiling, saying the ceiling in the shop\'s currency', () => {
    const { lines } = resolveWantList('Charizard $1,000,000,000\nPikachu (Jungle) LP $12\nMew €200,000,000', 'USD');
    expect(lines[0]).toEqual({ line: 1, text: 'Charizard $1,000,000,000', status: 'error', error: { code: 'PRICE_TOO_HIGH', message: 'Enter a price up to $100,000,000.00' } });
    expect(lines[1]).toMatchObject({ status: 'ok', maxPrice: 12 });
    // Another currency is said first: the ceiling is in the shop's.
    expect(lines[2]).toMatchObject({ status: 'error', error: { code: 'OTHER_CURRENCY' } });
    expect(resolveWantList('Mew €200,000,000', 'EUR').lines[0]).toMatchObject({ error: { code: 'PRICE_TOO_HIGH', message: 'Enter a price up to €100,000,000.00' } });
    expect(resolveWantList('Mew max 100000000', 'USD').lines[0]).toMatchObject({ status: 'ok', maxPrice: 100_000_000 });
  });

  it('refuses a price of 0 in words', () => {
    expect(resolveWantList('Charizard $0', 'USD').lines[0]).toMatchObject({ error: { code: 'UNREADABLE_PRICE', message: 'Enter a price above 0, or none for any price' } });
  });
});
