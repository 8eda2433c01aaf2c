// The verification page's HTML (escaping, assets, CSP-friendliness) and the pure parts of its
// browser script, run in a node `vm` context: the script's own RFC 8785 canonicalize must agree
// with the `canonicalize` package byte for byte, or signatures would fail to verify.
import { createContext, runInContext } from 'node:vm';
import { gzipSync } from 'node:zlib';

import canonicalize from 'canonicalize';
import fc from 'fast-check';

import { BADGE_PALETTES } from './badge';
import { VERIFY_PAGE_CSS, VERIFY_PAGE_PALETTES, VERIFY_PAGE_SCRIPT, htmlEscape, verifyPageHtml } from './verify-page';

interface TrustVerify {
  canonicalize(value: unknown): string;
  base64urlToBytes(text: string): Uint8Array;
  hex(buffer: ArrayBuffer | Uint8Array): string;
  readBit(bytes: Uint8Array, index: number): number;
  tierLabel(tier: string): string;
}

/** The script evaluated in an empty context (no window, no document): it only publishes its helpers. */
function scriptHelpers(): TrustVerify {
  const context = createContext({});
  runInContext(VERIFY_PAGE_SCRIPT, context, { timeout: 1000 });
  return (context as { __trustVerify: TrustVerify }).__trustVerify;
}

/** Both canonicalizers' answer, or "throws" when they refuse. */
function outcome(fn: (v: unknown) => string | undefined, value: unknown): string | undefined {
  try {
    return fn(value);
  } catch {
    return 'throws';
  }
}

describe('verifyPageHtml', () => {
  const hostile = `"><script>alert(1)</script>`;

  it('is a complete English HTML5 document titled for the seller', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Verify acme — seller trust credential</title>');
    expect(html).toContain('<main id="trust-verify" data-slug="acme" data-api-base=""');
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });

  it('references the script and stylesheet assets, and has no inline script or style', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toContain('<script src="/verify/assets/verify.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="/verify/assets/verify.css">');
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0][1]).toBe('');
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|javascript:/i);
  });

  it('has the verdict, the live region and one item per check', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toContain('<h1 id="verdict" data-state="checking">');
    expect(html).toMatch(/aria-live="polite"[^>]*>\s*<h1 id="verdict"/);
    expect([...html.matchAll(/<li data-check="([a-z]+)">/g)].map((m) => m[1])).toEqual(['signature', 'inputs', 'validity', 'status']);
    expect(html).toContain('<table id="factors">');
  });

  it('escapes a hostile slug in the text, the title and the data- attribute', () => {
    const html = verifyPageHtml({ slug: hostile, apiBase: `"'<x>` });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain(hostile);
    const escaped = '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;';
    expect(html).toContain(`data-slug="${escaped}"`);
    expect(html).toContain(`<title>Verify ${escaped} — seller trust credential</title>`);
    expect(html).toContain(`<span id="seller-slug">${escaped}</span>`);
    expect(html).toContain('data-api-base="&quot;&#39;&lt;x&gt;"');
    // In URLs the slug is percent-encoded, then HTML-escaped.
    expect(html).toContain('/api/v1/trust/credential/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('escapes all five HTML metacharacters', () => {
    expect(htmlEscape(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('VERIFY_PAGE_SCRIPT', () => {
  const helpers = scriptHelpers();

  it('is small and needs nothing from anywhere else', () => {
    expect(gzipSync(VERIFY_PAGE_SCRIPT).length).toBeLessThan(8 * 1024);
    expect(VERIFY_PAGE_SCRIPT).not.toMatch(/https?:\/\/|innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|import\(/);
    expect(VERIFY_PAGE_SCRIPT).not.toContain('__TIERS__');
  });

  it('canonicalizes tricky values exactly like the canonicalize package', () => {
    const tricky: unknown[] = [
      { b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } },
      { '€': 1, '\r': 2, 'ö': 3, '\u{1F600}': 4, '\ufb33': 5, a: 6, A: 7, '': 8, '10': 9, '9': 10 },
      [1e21, 1e-7, 1.5e-7, 0.1, 0.2 + 0.1, -0, 0, -1, 5e-324, 1.7976931348623157e308, 2 ** 53, 333333333.33333329, 1e20, 123e-20],
      { numbers: [4.5, 0.002, 1e-6, 1e-7, 9007199254740993, -1e21] },
      'string with "quotes", \\ backslash, \n newline, \u0001 control, \u2028 separator, é, \u{1F0CF}',
      { nested: { deeper: { deepest: [[], {}, [{}], ''] } } },
      null,
      true,
      [false, 'false', 0, '0'],
      { __proto__: 1, constructor: 2, toString: 3 },
      JSON.parse('{"__proto__": {"x": 1}}'),
      { type: 'SellerTrustScore', score: 87, factors: [{ name: 'completion', value: 0.95, weight: 40, contribution: 38 }] },
    ];
    for (const value of tricky) {
      expect(helpers.canonicalize(value)).toBe(canonicalize(value));
    }
    expect(helpers.canonicalize({ b: [1e21, -0], a: '\u20ac' })).toBe('{"a":"€","b":[1e+21,0]}');
  });

  it('refuses what JCS cannot represent, as the package does', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, { a: [Number.NaN] }, '\ud800', 'x\udc00', { '\ud83d': 1 }]) {
      expect(() => helpers.canonicalize(bad)).toThrow();
      expect(outcome(canonicalize, bad)).toBe('throws');
    }
  });

  it('agrees with the canonicalize package on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        expect(outcome(helpers.canonicalize, value)).toBe(outcome(canonicalize, value));
        expect(outcome(helpers.canonicalize, { [text]: text })).toBe(outcome(canonicalize, { [text]: text }));
      }),
      { numRuns: 500 },
    );
  });

  it('decodes base64url like node does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64url');
        expect(Buffer.from(helpers.base64urlToBytes(text))).toEqual(Buffer.from(bytes));
        expect(Buffer.from(helpers.base64urlToBytes(Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')))).toEqual(Buffer.from(bytes));
      }),
    );
    expect(() => helpers.base64urlToBytes('ab+c')).toThrow();
    expect(() => helpers.base64urlToBytes('abcde')).toThrow();
    expect(helpers.hex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
  });

  it('reads status bits with index 0 as the most significant bit of the first byte', () => {
    const bytes = new Uint8Array([0b1000_0000, 0b0000_0001, 0]);
    expect([0, 1, 7, 8, 14, 15, 16, 23].map((i) => helpers.readBit(bytes, i))).toEqual([1, 0, 0, 0, 0, 1, 0, 0]);
    expect(() => helpers.readBit(bytes, 24)).toThrow(/outside/);
    expect(() => helpers.readBit(bytes, -1)).toThrow(/outside/);
  });

  it('names the tiers like the badge', () => {
    expect(helpers.tierLabel('top_rated')).toBe('Top rated');
    expect(helpers.tierLabel('new_seller')).toBe('New seller');
    expect(helpers.tierLabel('constructor')).toBe('Constructor');
    expect(helpers.tierLabel('gold_plus')).toBe('Gold plus');
  });
});

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) =>
    [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('VERIFY_PAGE_CSS', () => {
  it.each(['light', 'dark'] as const)('pairs text and background at 4.5:1 or more in the %s theme', (theme) => {
    const p = VERIFY_PAGE_PALETTES[theme];
    const tiers = Object.values(BADGE_PALETTES[theme].tiers);
    const pairs: Array<[string, string, string]> = [
      ...(['text', 'muted', 'link', 'ok', 'bad'] as const).map((fg): [string, string, string] => [fg, p[fg], p.card]),
      ...tiers.map((colour): [string, string, string] => ['tier', colour, p.card]),
      ['text on page', p.text, p.bg],
      ['muted on page', p.muted, p.bg],
      ['verified', p.ok, p['ok-bg']],
      ['verified detail', p.text, p['ok-bg']],
      ['not verified', p.bad, p['bad-bg']],
      ['not verified detail', p.text, p['bad-bg']],
      ['checking', p.wait, p['wait-bg']],
      ['checking detail', p.text, p['wait-bg']],
      ['code', p.text, p['code-bg']],
    ];
    for (const [what, fg, bg] of pairs) expect([what, fg, bg, contrast(fg, bg) >= 4.5]).toEqual([what, fg, bg, true]);
    expect(VERIFY_PAGE_CSS).toContain(`--card: ${p.card};`);
  });

  it('colours the tier label like the badge', () => {
    expect(VERIFY_PAGE_CSS).toContain('.tier[data-tier="top_rated"] { color: var(--tier-top_rated);');
    expect(VERIFY_PAGE_CSS).toContain(`--tier-top_rated: ${BADGE_PALETTES.dark.tiers.top_rated};`);
  });

  it('follows the colour scheme, keeps [hidden] hidden and loads nothing', () => {
    expect(VERIFY_PAGE_CSS).toContain('@media (prefers-color-scheme: dark)');
    expect(VERIFY_PAGE_CSS).toContain('[hidden] { display: none !important; }');
    expect(VERIFY_PAGE_CSS).not.toMatch(/@import|url\(/);
  });
});
