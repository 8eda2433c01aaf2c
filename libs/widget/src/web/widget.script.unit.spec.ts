// The widget script as served: valid JavaScript, within its size budget, with the condition scale
// put in, calling only its own origin, and its ETag naming its version and content. And what it
// tells people (its messages part, run alone in a vm): a sentence for every refusal, prices as
// money in the shop's currency, and for the seller's developer a console line naming the problem
// and its fix.
import { runInNewContext, Script } from 'node:vm';

import { ERROR_CATALOG } from '@app/platform';

import { WIDGET_ETAG, WIDGET_MAX_GZIP_BYTES, widgetGzipBytes } from './widget.http';
import { WIDGET_CONDITIONS, WIDGET_MESSAGES, WIDGET_REFUSAL_CODES, WIDGET_SCRIPT } from './widget.script';

interface Said {
  text: string;
  code?: string;
  dev?: string;
}
interface Messages {
  UNAVAILABLE: string;
  money(amount: number, currency: string): string;
  wait(seconds: unknown): string;
  refusal(answer: { status: number; body: unknown }): Said;
  sellerHint(kind: string, seller: string, origin: string | undefined, base: string): string;
  issueText(message: unknown, field?: string, currency?: string, max?: number): string;
  priceOf(text: string, currency: string, max: number): number | string;
}

/** The messages part of the script, alone, in a fresh context (it touches no DOM). */
const messages = (): Messages =>
  runInNewContext(`(function () {\n${WIDGET_MESSAGES}\nreturn { UNAVAILABLE: UNAVAILABLE, money: money, wait: wait, refusal: refusal, sellerHint: sellerHint, issueText: issueText, priceOf: priceOf };\n})()`) as Messages;

/** Words a buyer must never read: codes, zod's texts, developer wording. */
const NOT_FOR_BUYERS = /[A-Z]{3,}_[A-Z_]+|expected|Too big|Invalid|JSON|HTTP|\b[45]\d\d\b|origin|slug/;

describe('widget.js', () => {
  it('parses as a script', () => {
    expect(() => new Script(WIDGET_SCRIPT, { filename: 'widget.js' })).not.toThrow();
  });

  it('is at most 15 KB gzipped', () => {
    expect(widgetGzipBytes()).toBeLessThanOrEqual(WIDGET_MAX_GZIP_BYTES);
  });

  it('carries the condition scale, best first', () => {
    expect(WIDGET_SCRIPT).not.toContain('__CONDITIONS__');
    expect(WIDGET_CONDITIONS.map(([label]) => label)).toEqual(['Mint', 'Near Mint', 'Lightly Played', 'Moderately Played', 'Heavily Played', 'Damaged']);
    expect(WIDGET_SCRIPT).toContain(JSON.stringify(WIDGET_CONDITIONS));
  });

  it('loads nothing from anywhere but its own origin', () => {
    expect(WIDGET_SCRIPT).not.toMatch(/https?:\/\/(?!\.\.\.)/);
    expect(WIDGET_SCRIPT).not.toMatch(/\b(import|require)\s*\(/);
    expect(WIDGET_SCRIPT).not.toMatch(/innerHTML|eval\(|new Function/);
  });

  it('has an ETag with its version and content hash', () => {
    expect(WIDGET_ETAG).toMatch(/^"w2-[A-Za-z0-9_-]{22}"$/);
  });
});

describe('widget.js: what it tells buyers and sellers', () => {
  const m = messages();

  it('formats prices as money in the shop\'s currency', () => {
    expect(m.money(100_000_000, 'USD')).toBe('$100,000,000.00');
    expect(m.money(12.5, 'EUR')).toBe('€12.50');
    expect(m.money(7, 'zz')).toBe('7.00 zz');
  });

  it('reads a price as typed, and says what to fix in the shop\'s currency', () => {
    const MAX = 100_000_000;
    for (const [typed, read] of [
      ['450', 450],
      ['12.50', 12.5],
      ['12,5', 12.5],
      ['$40', 40],
      ['1,250', 1250],
      ['1,250.50', 1250.5],
      ['1.250,50', 1250.5],
      ['1.250.000', 1_250_000],
      ['100,000,000', MAX],
    ] as const) {
      expect([typed, m.priceOf(typed, 'USD', MAX)]).toEqual([typed, read]);
    }
    expect(m.priceOf('1,000,000,000', 'USD', MAX)).toBe('Enter a price up to $100,000,000.00.');
    expect(m.priceOf('100000000.01', 'EUR', MAX)).toBe('Enter a price up to €100,000,000.00.');
    expect(m.priceOf('12.345', 'USD', MAX)).toBe('Use at most 2 decimals.');
    expect(m.priceOf('0', 'USD', MAX)).toBe('Enter a price above 0, like 25 or 12.50.');
    expect(m.priceOf('ten', 'USD', MAX)).toBe('Enter a price as a number, like 25 or 12.50.');
    expect(m.priceOf('1,000,000,00', 'USD', MAX)).toBe('Enter a price as a number, like 25 or 12.50.');
  });

  it('has a sentence for every error code the API can answer, and it is one a buyer understands', () => {
    // Every code of the catalogue a widget route can answer is named (the e2e test holds the list
    // to the OpenAPI document of those routes).
    const known = WIDGET_REFUSAL_CODES.filter((code) => Object.hasOwn(ERROR_CATALOG, code));
    // 405 (a wrong method: never the widget's own) is named ahead of the catalogue.
    expect(WIDGET_REFUSAL_CODES.filter((code) => !known.includes(code)).every((code) => code === 'METHOD_NOT_ALLOWED')).toBe(true);
    expect(m.refusal({ status: 405, body: { code: 'METHOD_NOT_ALLOWED', message: 'Method PUT is not allowed' } })).toEqual({
      text: 'Your want list could not be sent. Please try again.',
      code: 'METHOD_NOT_ALLOWED',
      dev: 'Want-list widget: unexpected answer 405 METHOD_NOT_ALLOWED: Method PUT is not allowed',
    });
    for (const code of known) {
      const { status, example } = ERROR_CATALOG[code];
      const said = m.refusal({ status, body: example });
      expect([code, said.code]).toEqual([code, code]);
      expect(said.text).toMatch(/^[A-Z].+[.]$/);
      expect([code, said.text]).not.toEqual([code, expect.stringMatching(NOT_FOR_BUYERS)]);
      expect(said.text).not.toContain(example.message);
    }
  });

  it.each([
    ['RATE_LIMITED', { retry_after: 1 }, 'Many want lists are being sent just now. Please try again in 1 second.'],
    ['RATE_LIMITED', { retry_after: 42 }, 'Many want lists are being sent just now. Please try again in 42 seconds.'],
    ['RATE_LIMITED', { retry_after: 600 }, 'Many want lists are being sent just now. Please try again in 10 minutes.'],
    ['STORAGE_FULL', { retry_after: 30 }, 'The shop cannot take want lists just now. Please try again in 30 seconds.'],
    ['STORAGE_CORRUPT', undefined, 'The shop cannot take want lists just now. Please try again later.'],
    ['PAYLOAD_TOO_LARGE', undefined, 'Your want list is too long to send. Shorten your note, or send fewer cards at a time.'],
    ['NOT_FOUND', undefined, 'Want lists aren’t available on this page right now.'],
    ['ORIGIN_NOT_ALLOWED', undefined, 'Want lists aren’t available on this page right now.'],
    ['INTERNAL', undefined, 'Something went wrong at the shop’s end. Please try again in a moment.'],
  ])('says %s (details %j) as: %s', (code, details, text) => {
    expect(m.refusal({ status: ERROR_CATALOG[code].status, body: { code, message: 'for developers', details } }).text).toBe(text);
  });

  it('answers an unknown code by its status, and tells the developer what came back', () => {
    expect(m.refusal({ status: 418, body: { code: 'TEAPOT', message: 'short and stout' } })).toEqual({
      text: 'Your want list could not be sent. Please try again.',
      dev: 'Want-list widget: unexpected answer 418 TEAPOT: short and stout',
    });
    expect(m.refusal({ status: 502, body: {} }).text).toBe('Something went wrong at the shop’s end. Please try again in a moment.');
  });

  it('tells the seller\'s developer which origin was refused and how to allow it', () => {
    const hint = m.sellerHint('ORIGIN_NOT_ALLOWED', 'acme', 'https://shop.example', 'https://api.example');
    expect(hint).toContain('seller "acme" does not allow its widget on pages of https://shop.example');
    expect(hint).toContain('add https://shop.example to the widget’s allowed origins: in the portal (Widget settings)');
    expect(hint).toContain('PUT https://api.example/api/v1/widget/settings');
    expect(m.sellerHint('NOT_FOUND', 'acmee', undefined, 'https://api.example')).toContain('there is no seller "acmee" (the data-seller of the <script> tag)');
    expect(m.sellerHint('CURRENCY', 'dollars', undefined, '')).toContain('data-currency "dollars" is not a 3-letter currency code');
  });

  it('shows a field\'s refusal as a sentence, never the text rule\'s code points', () => {
    expect(m.issueText('Enter a valid email address, like name@example.com')).toBe('Enter a valid email address, like name@example.com.');
    expect(m.issueText('Use at most 2 decimals.')).toBe('Use at most 2 decimals.');
    expect(m.issueText('contains U+202E (a bidirectional control character); remove it')).toBe('Remove the invisible control characters (they often come with copied text).');
  });

  it('never shows a validator\'s own wording: it says what the field takes instead', () => {
    expect(m.issueText('Too big: expected number to be <=100000000', 'maxPrice', 'USD', 100_000_000)).toBe('Enter a price from $0.01 to $100,000,000.00, or none for any price.');
    expect(m.issueText('Invalid input: expected number, received string', 'maxPrice', 'EUR', 100_000_000)).toBe('Enter a price from €0.01 to €100,000,000.00, or none for any price.');
    expect(m.issueText('Invalid email address', 'email', 'USD', 1)).toBe('Enter a valid email address, like name@example.com.');
    expect(m.issueText('Too small: expected string to have >=1 characters', 'cardName', 'USD', 1)).toBe('Enter the card you are looking for.');
    expect(m.issueText('Unrecognized key: "x"', 'colour', 'USD', 1)).toBe('Check this field.');
    expect(m.issueText('Enter a price up to $100,000,000.00', 'maxPrice', 'USD', 1)).toBe('Enter a price up to $100,000,000.00.');
  });
});
