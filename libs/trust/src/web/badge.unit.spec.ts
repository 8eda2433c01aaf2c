// The trust badge SVG: accessible (role img, title + desc; as served, a link named by them),
// readable (WCAG AA contrast computed for every text colour it draws, in both themes), safe
// (seller names escaped, nothing external but its link) and deterministic. A seller without a
// credential gets a "New seller" badge that vouches for nothing.
import { BADGE_PALETTES, BADGE_TIERS, type BadgeInput, type BadgeTheme, badgeSvg, xmlEscape } from './badge';

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const TIERS = Object.keys(BADGE_TIERS);
const THEMES: BadgeTheme[] = ['light', 'dark'];
const base: BadgeInput = { sellerName: 'Acme Cards', slug: 'acme', score: 87, tier: 'trusted', theme: 'light' };
const LINK = 'https://trust.example/api/embed/trust-scan/acme?via=badge';

/** The text between the tags, entities left as they are. */
function textContent(svg: string): string {
  return svg.replace(/<title[\s\S]*?<\/title>|<desc[\s\S]*?<\/desc>/g, '').replace(/<[^>]+>/g, '');
}

describe('badgeSvg', () => {
  it('computes the WCAG contrast ratio the usual way', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it.each(THEMES)('every text colour in the %s palette is at least 4.5:1 on the badge background', (theme) => {
    const p = BADGE_PALETTES[theme];
    for (const colour of [p.text, p.muted, ...Object.values(p.tiers)]) {
      expect([colour, contrast(colour, p.background) >= 4.5]).toEqual([colour, true]);
    }
    // The check mark on the shield is a graphic: WCAG 1.4.11 asks 3:1; it gets the same 4.5:1.
    for (const shield of Object.values(p.tiers)) expect(contrast(p.checkMark, shield)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(THEMES.flatMap((theme) => TIERS.map((tier) => [theme, tier] as const)))(
    'draws only AA text colours on its background (%s, %s)',
    (theme, tier) => {
      for (const score of [87, null]) {
        const svg = badgeSvg({ ...base, theme, tier, score });
        const background = /<rect [^>]*fill="(#[0-9a-f]{6})"/.exec(svg)![1];
        expect(background).toBe(BADGE_PALETTES[theme].background);
        const fills = [...svg.matchAll(/<(?:text|tspan) [^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
        expect(fills.length).toBeGreaterThanOrEqual(score === null ? 2 : 4);
        for (const fill of fills) expect(contrast(fill, background)).toBeGreaterThanOrEqual(4.5);
      }
    },
  );

  it('is an image named by its title and desc, saying the score and the tier in words', () => {
    const svg = badgeSvg(base);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="240" height="64" viewBox="0 0 240 64" role="img"/);
    const labelledBy = /aria-labelledby="([^"]+)"/.exec(svg)![1].split(' ');
    expect(labelledBy).toHaveLength(2);
    expect(svg).toContain(`<title id="${labelledBy[0]}">Acme Cards — trust score 87 of 100, trusted. Verified credential.</title>`);
    expect(svg).toContain(`<desc id="${labelledBy[1]}">`);
    expect(textContent(svg)).toBe('Acme Cards87/100Trusted');
  });

  it('says "New seller" when there is no score yet', () => {
    const svg = badgeSvg({ ...base, score: null, tier: 'new_seller' });
    expect(textContent(svg)).toBe('Acme CardsNew seller');
    expect(svg).toContain('<title id="trust-badge-acme-light-title">Acme Cards — new seller, no trust score yet. Verified credential.</title>');
  });

  it('does not vouch for a tier the credential cannot carry (a revoked seller, say)', () => {
    const svg = badgeSvg({ ...base, score: null, tier: 'revoked' });
    expect(textContent(svg)).toBe('Acme CardsRevoked');
    expect(svg).toContain('>Acme Cards — revoked. No verified trust score.</title>');
    expect(svg).not.toContain('M7.5 17 L12 21.5 L20.5 12'); // no check mark: an exclamation mark
    expect(svg).toContain('M14 8.5 V18.5');
    expect(badgeSvg(base)).toContain('M7.5 17 L12 21.5 L20.5 12');
    expect(badgeSvg({ ...base, tier: 'gold_plus' })).toContain('>Acme Cards — gold plus, score 87 of 100. No verified trust score.</title>');
  });

  it('labels every tier in words', () => {
    expect(BADGE_TIERS).toEqual({
      top_rated: 'Top rated',
      trusted: 'Trusted',
      established: 'Established',
      developing: 'Developing',
      new_seller: 'New seller',
    });
    expect(textContent(badgeSvg({ ...base, tier: 'top_rated', score: 97 }))).toContain('Top rated');
    expect(textContent(badgeSvg({ ...base, tier: 'gold_plus' }))).toContain('Gold plus');
    expect(textContent(badgeSvg({ ...base, tier: 'constructor' }))).toContain('Constructor');
  });

  it('escapes seller-provided text everywhere', () => {
    const sellerName = `<script>alert("x")</script> & 'Co'`;
    const slug = `a"b<c>'&`;
    const svg = badgeSvg({ ...base, sellerName, slug });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('"x"');
    expect(svg).toContain('>&lt;script&gt;alert(&quot;x&quot;)&lt;/s…</text>'); // cut to 22 code points on the badge
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;Co&apos; — trust score');
    expect(svg).toContain('a&quot;b&lt;c&gt;&apos;&amp;');
    // Every & starts an entity; every < starts a tag of ours.
    expect(svg.match(/&(?!amp;|lt;|gt;|quot;|apos;)/g)).toBeNull();
    const tags = [...svg.matchAll(/<\/?([a-zA-Z]+)/g)].map((m) => m[1]);
    expect(new Set(tags)).toEqual(new Set(['svg', 'title', 'desc', 'rect', 'clipPath', 'g', 'path', 'text', 'tspan']));
    const linked = badgeSvg({ ...base, sellerName, slug, href: LINK });
    expect(new Set([...linked.matchAll(/<\/?([a-zA-Z]+)/g)].map((m) => m[1]))).toEqual(new Set([...tags, 'a']));
    expect(linked.match(/&(?!amp;|lt;|gt;|quot;|apos;)/g)).toBeNull();
    // Ids come from the slug but only ever use [a-z0-9-].
    for (const [, id] of svg.matchAll(/ id="([^"]*)"/g)) expect(id).toMatch(/^[a-z0-9-]+$/);
  });

  it('replaces characters XML cannot carry, so the document stays well-formed', () => {
    expect(xmlEscape('a\u0000b\u001bc\ud800d\u{1F0CF}')).toBe('a\uFFFDb\uFFFDc\uFFFDd\u{1F0CF}');
  });

  it('cuts long names without splitting a character', () => {
    const svg = badgeSvg({ ...base, sellerName: 'The Very Long Name of a Card Shop 🃏🃏🃏 Emporium' });
    expect(textContent(svg)).toMatch(/^The Very Long Name of…87\/100/);
    expect(badgeSvg({ ...base, sellerName: '🃏'.repeat(40) })).toContain('>' + '🃏'.repeat(21) + '…<');
    expect(svg).toMatch(/<clipPath id="([a-z-]+)-name">[\s\S]*clip-path="url\(#\1-name\)"/);
  });

  it('references nothing outside itself', () => {
    for (const theme of THEMES) {
      const svg = badgeSvg({ ...base, theme });
      expect(svg).not.toMatch(/href|url\((?!#)|<image|<script|<style|style=|@import|<foreignObject/i);
      expect(svg.match(/https?:\/\//g)).toEqual(['http://']); // the xmlns only
      // Linked, only the link leads anywhere; nothing is loaded.
      const linked = badgeSvg({ ...base, theme, href: LINK });
      expect(linked.match(/https?:\/\/[^"]+/g)).toEqual(['http://www.w3.org/2000/svg', LINK]);
      expect(linked).not.toMatch(/url\((?!#)|<image|<script|<style|style=|@import|<foreignObject|xlink/i);
    }
  });

  it('is, linked, one link to the verification page named by its title and desc, opening in the whole window', () => {
    const svg = badgeSvg({ ...base, href: LINK });
    // No role img around it: that would hide the link from assistive technology.
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="240" height="64" viewBox="0 0 240 64"><a /);
    expect(svg).not.toContain('role="img"');
    expect(svg).toMatch(/<\/a><\/svg>$/);
    const a = /^<svg[^>]*><a ([^>]*)>/.exec(svg)![1];
    expect(a).toBe(`href="${LINK}" target="_top" aria-labelledby="trust-badge-acme-light-title trust-badge-acme-light-desc"`);
    expect(svg).toContain('<a href="https://trust.example/api/embed/trust-scan/acme?via=badge" target="_top" aria-labelledby="trust-badge-acme-light-title trust-badge-acme-light-desc"><title id="trust-badge-acme-light-title">Acme Cards — trust score 87 of 100, trusted. Verified credential.</title>');
    // The same drawing as the unlinked badge, inside the link.
    expect(textContent(svg)).toBe('Acme Cards87/100Trusted');
    expect(badgeSvg({ ...base, href: 'https://x.example/?a=1&b="2"' })).toContain('href="https://x.example/?a=1&amp;b=&quot;2&quot;"');
  });

  it('says "New seller" for a seller without a credential, vouching for nothing', () => {
    const svg = badgeSvg({ ...base, score: 99, tier: 'top_rated', credential: false, href: LINK });
    expect(textContent(svg)).toBe('Acme CardsNew seller');
    expect(svg).toContain('<title id="trust-badge-acme-light-title">Acme Cards — new seller: no completed trade yet, so no trust score. No credential yet.</title>');
    expect(svg).toContain('No trust credential yet for acme: one is signed when a first trade completes.');
    expect(svg).not.toContain('Verified credential');
    expect(svg).not.toContain('M7.5 17 L12 21.5 L20.5 12'); // no check mark: a dash
    expect(svg).toContain('M9 17 H19');
    for (const theme of THEMES) {
      const fills = [...badgeSvg({ ...base, theme, credential: false }).matchAll(/<(?:text|tspan) [^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
      for (const fill of fills) expect(contrast(fill, BADGE_PALETTES[theme].background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('is deterministic and differs by theme', () => {
    expect(badgeSvg(base)).toBe(badgeSvg({ ...base }));
    const dark = badgeSvg({ ...base, theme: 'dark' });
    expect(dark).toContain('fill="#0d1117"');
    expect(dark).not.toBe(badgeSvg(base));
  });

  it('refuses a score that is not an integer 0–100', () => {
    for (const score of [-1, 101, 87.5, Number.NaN]) expect(() => badgeSvg({ ...base, score })).toThrow(RangeError);
    expect(() => badgeSvg({ ...base, score: 0 })).not.toThrow();
    expect(() => badgeSvg({ ...base, score: 100 })).not.toThrow();
  });
});
