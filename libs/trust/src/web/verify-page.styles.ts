// The verification page's look: its palettes (contrast checked by the unit test) and its
// stylesheet, served as /verify/assets/verify.css.
import { BADGE_PALETTES, BADGE_TIERS } from './badge';

/** The page's colours. Text pairs used by the stylesheet are ≥ 4.5:1 (checked by the unit test). */
export const VERIFY_PAGE_PALETTES = Object.freeze({
  light: {
    bg: '#f6f8fa', card: '#ffffff', text: '#1f2328', muted: '#59636e', border: '#d0d7de', link: '#0550ae', 'code-bg': '#eef1f4',
    ok: '#1a7f37', 'ok-bg': '#dafbe1', bad: '#c4232d', 'bad-bg': '#ffebe9', wait: '#59636e', 'wait-bg': '#eef1f4',
  },
  dark: {
    bg: '#0d1117', card: '#161b22', text: '#e6edf3', muted: '#9198a1', border: '#30363d', link: '#6cb6ff', 'code-bg': '#262c36',
    ok: '#3fb950', 'ok-bg': '#12261e', bad: '#ff7b72', 'bad-bg': '#2d1519', wait: '#9198a1', 'wait-bg': '#1c2128',
  },
});

/** CSS custom properties for one theme: the page colours plus the badge's tier colours. */
function cssVariables(theme: 'light' | 'dark'): string {
  const vars = { ...VERIFY_PAGE_PALETTES[theme] } as Record<string, string>;
  for (const [tier, colour] of Object.entries(BADGE_PALETTES[theme].tiers)) vars[`tier-${tier}`] = colour;
  return Object.entries(vars)
    .map(([name, value]) => `--${name}: ${value};`)
    .join(' ');
}

const TIER_RULES = Object.keys(BADGE_TIERS)
  .map((tier) => `.tier[data-tier="${tier}"] { color: var(--tier-${tier}); border-color: currentColor; }`)
  .join('\n');

/** The page's stylesheet (served as text/css): system fonts, light and dark by preference. */
export const VERIFY_PAGE_CSS = `/* Seller trust credential verification page. */
:root { color-scheme: light dark; ${cssVariables('light')} }
@media (prefers-color-scheme: dark) {
  :root { ${cssVariables('dark')} }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
}
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
a { color: var(--link); }
code { font: 0.85em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code-bg);
  padding: 0.1em 0.35em; border-radius: 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 0 0 0.75rem; }
.kicker { margin: 0; color: var(--muted); font-size: 0.9rem; letter-spacing: 0.02em; }
.muted { color: var(--muted); margin: 0.25rem 0 0; font-size: 0.9rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1.1rem 1.4rem; margin: 1rem 0 0; }

.verdict-box { border-left: 6px solid var(--wait); background: var(--wait-bg); }
main[data-state="verified"] .verdict-box { border-left-color: var(--ok); background: var(--ok-bg); }
main[data-state="not-verified"] .verdict-box { border-left-color: var(--bad); background: var(--bad-bg); }
#verdict { margin: 0; font-size: 2rem; line-height: 1.2; color: var(--wait); }
#verdict[data-state="verified"] { color: var(--ok); }
#verdict[data-state="not-verified"] { color: var(--bad); }
#verdict[data-state="verified"]::before { content: "\\2713  "; content: "\\2713  " / ""; }
#verdict[data-state="not-verified"]::before { content: "\\2717  "; content: "\\2717  " / ""; }
#verdict-detail { margin: 0.35rem 0 0; }
#error { margin: 0.35rem 0 0; font-weight: 600; font-size: 1.1rem; }
.hint { color: var(--muted); margin: 0.75rem 0 0 0.25rem; }

#seller-name { font-size: 1.5rem; margin: 0; }
.score-line { margin: 0.25rem 0 0; display: flex; align-items: baseline; gap: 0.75rem; flex-wrap: wrap; }
.score { font-size: 2.25rem; font-weight: 700; }
.tier { font-weight: 600; padding: 0.1rem 0.6rem; border-radius: 999px; border: 1px solid var(--border); }
.claimed { margin: 0.35rem 0 0; color: var(--muted); font-size: 0.9rem; }
${TIER_RULES}

#checks { list-style: none; margin: 0; padding: 0; }
#checks li { display: grid; grid-template-columns: 1.5rem auto 1fr; column-gap: 0.5rem; padding: 0.55rem 0;
  border-top: 1px solid var(--border); align-items: baseline; }
#checks li:first-child { border-top: 0; }
.mark { font-weight: 700; color: var(--wait); }
.mark::before { content: "\\2026"; content: "\\2026" / ""; }
li[data-ok="true"] .mark { color: var(--ok); }
li[data-ok="true"] .mark::before { content: "\\2713"; content: "\\2713" / ""; }
li[data-ok="false"] .mark { color: var(--bad); }
li[data-ok="false"] .mark::before { content: "\\2717"; content: "\\2717" / ""; }
.check-name { font-weight: 600; }
.check-result { color: var(--muted); }
li[data-ok="true"] .check-result { color: var(--ok); }
li[data-ok="false"] .check-result { color: var(--bad); font-weight: 600; }
.check-detail { grid-column: 2 / -1; color: var(--muted); font-size: 0.92rem; overflow-wrap: anywhere; }

.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid var(--border); }
th { color: var(--muted); font-weight: 600; font-size: 0.9rem; }
td:not(:first-child), th:not(:first-child) { text-align: right; }

dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.links { display: flex; gap: 1rem; flex-wrap: wrap; margin: 1rem 0 0; font-size: 0.92rem; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 0.5rem; } #verdict { font-size: 1.6rem; } }
`;
