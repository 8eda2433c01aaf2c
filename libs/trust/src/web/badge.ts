// The embeddable trust badge (GET /api/embed/trust-badge/<slug>?theme=light|dark): a small,
// self-contained SVG a seller puts on their own site. Pure and deterministic (same input, same
// bytes) so it caches well; no fonts, images or scripts are referenced, so it renders the same in
// an <img>, an <object>, inline, or printed. With a link (`href`, as served) the whole drawing is an
// <a target="_top"> to the seller's verification page, named by its <title> and <desc>: a click
// opens the page in the whole window whether the badge is pasted inline or embedded with <object>
// (an <img> is inert: wrap it in an <a> instead). Without one it is role="img", named the same way.
// Every text colour meets WCAG AA (4.5:1) on its background in both themes (checked by the unit
// test). Seller-provided text is XML-escaped: a seller name is data, never markup.

export type BadgeTheme = 'light' | 'dark';

export interface BadgeInput {
  sellerName: string;
  slug: string;
  /** Integer 0–100, or null while the seller is too new to score. */
  score: number | null;
  tier: string;
  theme: BadgeTheme;
  /** Where a click leads (an absolute URL: the scan-tracking link to the verification page); absent or null: a plain image. */
  href?: string | null;
  /**
   * False for a seller with no credential yet (no completed trade): a "New seller" badge that
   * vouches for nothing (no check mark, no score). Default true.
   */
  credential?: boolean;
}

/** Each tier in words, as the badge (and the verification page) shows it. */
export const BADGE_TIERS: Readonly<Record<string, string>> = Object.freeze({
  top_rated: 'Top rated',
  trusted: 'Trusted',
  established: 'Established',
  developing: 'Developing',
  new_seller: 'New seller',
});

export interface BadgePalette {
  background: string;
  border: string;
  text: string;
  muted: string;
  /** The colour on the shield behind the check mark. */
  checkMark: string;
  tiers: Readonly<Record<string, string>>;
}

/** Light and dark colours. Text colours are ≥ 4.5:1 against `background` (see the unit test). */
export const BADGE_PALETTES: Readonly<Record<BadgeTheme, BadgePalette>> = Object.freeze({
  light: {
    background: '#ffffff',
    border: '#d0d7de',
    text: '#1f2328',
    muted: '#59636e',
    checkMark: '#ffffff',
    tiers: { top_rated: '#1a7f37', trusted: '#0550ae', established: '#6639ba', developing: '#8a4600', new_seller: '#59636e' },
  },
  dark: {
    background: '#0d1117',
    border: '#30363d',
    text: '#e6edf3',
    muted: '#9198a1',
    checkMark: '#0d1117',
    tiers: { top_rated: '#3fb950', trusted: '#4493f8', established: '#ab7df8', developing: '#d29922', new_seller: '#9198a1' },
  },
});

export const BADGE_WIDTH = 240;
export const BADGE_HEIGHT = 64;
/** Longest seller name (in code points) shown before it is cut with an ellipsis. */
export const BADGE_NAME_MAX = 22;

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** Characters XML 1.0 forbids outright (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/F). */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe inside an XML element or a double- or single-quoted attribute. */
export function xmlEscape(text: string): string {
  return text
    .replace(XML_FORBIDDEN, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A tier in words: the known labels, else the tier id made readable ("gold_plus" → "Gold plus"). */
export function tierLabel(tier: string): string {
  if (Object.hasOwn(BADGE_TIERS, tier)) return BADGE_TIERS[tier];
  const words = tier.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Unrated';
}

/** At most `max` code points (never splitting a surrogate pair), with "…" when cut. */
export function truncate(text: string, max: number): string {
  const points = Array.from(text.replace(/\s+/g, ' ').trim());
  return points.length <= max ? points.join('') : points.slice(0, max - 1).join('').trimEnd() + '…';
}

/** An id fragment made only of [a-z0-9-], so ids from a slug never break the markup. */
function idPart(slug: string): string {
  return slug.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 64) || 'seller';
}

function checkScore(score: number | null): void {
  if (score === null) return;
  if (!Number.isInteger(score) || score < 0 || score > 100) {
    throw new RangeError(`badge score must be an integer 0–100 or null, not ${String(score)}`);
  }
}

/** Whether the tier is one of the five the credential can carry (anything else, e.g. "revoked", is not vouched for). */
function isCredentialTier(tier: string): boolean {
  return Object.hasOwn(BADGE_TIERS, tier);
}

/** The badge's accessible name: what a screen reader says for the whole image. */
export function badgeTitle(sellerName: string, score: number | null, tier: string, credential = true): string {
  const name = sellerName.trim() || 'This seller';
  if (!credential) return `${name} — new seller: no completed trade yet, so no trust score. No credential yet.`;
  const tierWords = tierLabel(tier).toLowerCase();
  if (!isCredentialTier(tier)) {
    return `${name} — ${tierWords}${score === null ? '' : `, score ${score} of 100`}. No verified trust score.`;
  }
  const scored = score === null ? `new seller, no trust score yet` : `trust score ${score} of 100, ${tierWords}`;
  return `${name} — ${scored}. Verified credential.`;
}

/**
 * A shield, 28×34, its top-left corner at (x, y): with a check mark for a credential tier, a dash
 * for a seller without a credential yet, an exclamation mark for anything else (say a revoked
 * seller's badge).
 */
function shield(x: number, y: number, fill: string, mark: string, sign: 'check' | 'dash' | 'warning'): string {
  const path =
    sign === 'check'
      ? `<path d="M7.5 17 L12 21.5 L20.5 12" fill="none" stroke="${mark}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`
      : sign === 'dash'
        ? `<path d="M9 17 H19" fill="none" stroke="${mark}" stroke-width="3" stroke-linecap="round"/>`
        : `<path d="M14 8.5 V18.5 M14 24 V24.2" fill="none" stroke="${mark}" stroke-width="3.2" stroke-linecap="round"/>`;
  return (
    `<g transform="translate(${x} ${y})" aria-hidden="true">` +
    `<path d="M14 0 L28 5 V15 C28 24.5 22 31 14 34 C6 31 0 24.5 0 15 V5 Z" fill="${fill}"/>` +
    path +
    `</g>`
  );
}

export function badgeSvg(input: BadgeInput): string {
  checkScore(input.score);
  const credential = input.credential !== false;
  // A seller without a credential is a new seller, whatever else was said.
  const tier = credential ? input.tier : 'new_seller';
  const score = credential ? input.score : null;
  const palette = BADGE_PALETTES[input.theme === 'dark' ? 'dark' : 'light'];
  const tierColour = Object.hasOwn(palette.tiers, tier) ? palette.tiers[tier] : palette.muted;
  const label = tierLabel(tier);
  const id = `trust-badge-${idPart(input.slug)}-${input.theme === 'dark' ? 'dark' : 'light'}`;
  const title = badgeTitle(input.sellerName, score, tier, credential);
  const desc = credential
    ? `Seller trust credential for ${input.slug}, signed by Collectibles Commerce API. Verify it at /verify/${input.slug}.`
    : `No trust credential yet for ${input.slug}: one is signed when a first trade completes. See /verify/${input.slug}.`;
  const name = truncate(input.sellerName, BADGE_NAME_MAX) || 'Seller';

  const sign = !credential ? 'dash' : isCredentialTier(tier) ? 'check' : 'warning';
  // The headline: the score, else the tier in words ("New seller", or say "Revoked").
  const headline =
    score === null
      ? `<text x="52" y="47" font-size="17" font-weight="700" fill="${palette.text}">${xmlEscape(truncate(label, 16))}</text>`
      : `<text x="52" y="47" font-size="19" font-weight="700" fill="${palette.text}">${score}` +
        `<tspan font-size="12" font-weight="600" fill="${palette.muted}">/100</tspan></text>`;
  // The right-hand label says the tier, unless the headline already does.
  const side =
    score === null
      ? ''
      : `<text x="${BADGE_WIDTH - 14}" y="46" font-size="12" font-weight="600" text-anchor="end" fill="${tierColour}">${xmlEscape(truncate(label, 14))}</text>`;

  const drawing =
    `<rect x="0.5" y="0.5" width="${BADGE_WIDTH - 1}" height="${BADGE_HEIGHT - 1}" rx="8" ` +
    `fill="${palette.background}" stroke="${palette.border}"/>` +
    shield(14, 15, tierColour, palette.checkMark, sign) +
    // The name is cut to BADGE_NAME_MAX and clipped to its box, however wide the font.
    `<clipPath id="${id}-name"><rect x="52" y="8" width="${BADGE_WIDTH - 52 - 12}" height="22"/></clipPath>` +
    `<g font-family="${FONT}" aria-hidden="true">` +
    `<text x="52" y="24" font-size="12" font-weight="600" fill="${palette.text}" clip-path="url(#${id}-name)">${xmlEscape(name)}</text>` +
    headline +
    side +
    `</g>`;
  const named = `<title id="${id}-title">${xmlEscape(title)}</title><desc id="${id}-desc">${xmlEscape(desc)}</desc>`;
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" viewBox="0 0 ${BADGE_WIDTH} ${BADGE_HEIGHT}"`;

  if (!input.href) return `${open} role="img" aria-labelledby="${id}-title ${id}-desc">${named}${drawing}</svg>`;
  // A link around it all, named by its own <title> and <desc> (a link inside role="img" would be
  // hidden from assistive technology); _top, so a click inside an <object> opens the page in the
  // whole window, not in the badge's box.
  return (
    `${open}>` +
    `<a href="${xmlEscape(input.href)}" target="_top" aria-labelledby="${id}-title ${id}-desc">${named}` +
    drawing +
    `</a></svg>`
  );
}
