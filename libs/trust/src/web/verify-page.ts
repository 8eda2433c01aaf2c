// The public verification page (GET /verify/<slug>) and its two static assets
// (/verify/assets/verify.js, /verify/assets/verify.css). The page does not take the server's
// word: the script fetches the credential in its standard form and re-checks it in the visitor's
// own browser with WebCrypto — the W3C Data Integrity eddsa-jcs-2022 proof over the whole
// credential (subject, issuer, validity period and status entry: nothing it reads is unsigned), by
// a published key whose did:key id names exactly that key, the issuer being that key's DID, and
// that what was signed is a seller trust credential as issued (its type, an id its subject names, a
// status entry naming its list); the SHA-256 of the published inputs;
// the validity period; and the Bitstring Status List bit, in a list whose own proof verifies — and
// only then says "verified". The score is shown large only then: a credential that fails a check
// is "not verified", and what it claims is said once, in small print, as a claim not to rely on.
// A seller with no credential yet (no completed trade) is told apart from an unknown address.
// Built for a strict CSP (default-src 'self'; style-src 'self'): no inline script or style, every
// piece of data inserted with textContent. Pure string builders; the controllers serve them.
// Here the page's shell (its HTML); its look is verify-page.styles.ts, its script the two
// verify-script.*.ts parts joined below.
import { BADGE_TIERS } from './badge';
import { VERIFY_SCRIPT_HELPERS } from './verify-script.helpers';
import { VERIFY_SCRIPT_PAGE } from './verify-script.page';

export { VERIFY_PAGE_CSS, VERIFY_PAGE_PALETTES } from './verify-page.styles';

export interface VerifyPageInput {
  slug: string;
  /** Prefix for the API's same-origin URLs (default ''): `${apiBase}/api/v1/trust/...`. */
  apiBase?: string;
  /**
   * A seller the service knows without a credential yet (no completed trade): what it is called,
   * so the page can say so when it finds no credential. Absent or null: not known to be one.
   */
  newSeller?: { name: string } | null;
}

export const VERIFY_SCRIPT_PATH = '/verify/assets/verify.js';
export const VERIFY_CSS_PATH = '/verify/assets/verify.css';

/** Text safe in HTML content and in double- or single-quoted attribute values. */
export function htmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const CHECKS: ReadonlyArray<readonly [string, string]> = [
  ['signature', 'Signature'],
  ['inputs', 'Inputs'],
  ['validity', 'Validity period'],
  ['status', 'Revocation status'],
];

export function verifyPageHtml(input: VerifyPageInput): string {
  const slug = htmlEscape(input.slug);
  const apiBase = htmlEscape(input.apiBase ?? '');
  const newSeller = input.newSeller ? ` data-new-seller="${htmlEscape(input.newSeller.name)}"` : '';
  const credentialUrl = htmlEscape(`${input.apiBase ?? ''}/api/v1/trust/credential/${encodeURIComponent(input.slug)}`);
  const checks = CHECKS.map(
    ([id, name]) =>
      `<li data-check="${id}"><span class="mark" aria-hidden="true"></span>` +
      `<span class="check-name">${name}</span> <span class="check-result">checking…</span>` +
      `<span class="check-detail"></span></li>`,
  ).join('\n        ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta name="referrer" content="no-referrer">
  <title>Verify ${slug} — seller trust credential</title>
  <link rel="stylesheet" href="${VERIFY_CSS_PATH}">
  <script src="${VERIFY_SCRIPT_PATH}" defer></script>
</head>
<body>
  <main id="trust-verify" data-slug="${slug}" data-api-base="${apiBase}"${newSeller} data-state="checking">
    <p class="kicker">Seller trust credential · <span id="seller-slug">${slug}</span></p>
    <div class="card verdict-box" aria-live="polite" aria-atomic="true">
      <h1 id="verdict" data-state="checking">checking…</h1>
      <p id="verdict-detail">Checking the credential in your browser.</p>
      <p id="error" hidden></p>
    </div>
    <p id="error-hint" class="hint" hidden>Check the address, or ask the seller for their verification link.</p>
    <noscript><p class="card">This page checks the credential in your browser and needs JavaScript.
      The raw credential is at <a href="${credentialUrl}">${credentialUrl}</a>.</p></noscript>

    <section id="subject" class="card" aria-labelledby="seller-name" hidden>
      <h2 id="seller-name"></h2>
      <div id="score-box" hidden>
        <p class="score-line"><span id="score" class="score"></span> <span id="tier" class="tier"></span></p>
        <p class="muted">Score as of <time id="as-of"></time> · formula <code id="formula"></code> · <span id="inputs-count"></span></p>
      </div>
      <p id="claimed" class="claimed" hidden></p>
    </section>

    <section id="checks-section" class="card" aria-labelledby="checks-heading">
      <h2 id="checks-heading">Checks made in your browser</h2>
      <ul id="checks">
        ${checks}
      </ul>
    </section>

    <section id="factors-section" class="card" aria-labelledby="factors-heading" hidden>
      <h2 id="factors-heading">How the score is made</h2>
      <div class="table-scroll">
        <table id="factors">
          <thead><tr><th scope="col">Factor</th><th scope="col">Value</th><th scope="col">Weight</th><th scope="col">Contribution</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
    </section>

    <section id="details-section" class="card" aria-labelledby="details-heading" hidden>
      <h2 id="details-heading">Credential</h2>
      <dl>
        <dt>Valid from</dt><dd><time id="valid-from"></time></dd>
        <dt>Valid until</dt><dd><time id="valid-until"></time></dd>
        <dt>Issuer</dt><dd><span id="issuer-name"></span> <code id="issuer-id"></code></dd>
        <dt>Signing key</dt><dd><code id="key-id"></code></dd>
        <dt>Credential id</dt><dd><code id="credential-id"></code></dd>
      </dl>
      <p class="links"><a id="link-credential" href="${credentialUrl}?proof=data-integrity">Credential (JSON)</a>
        <a id="link-inputs" href="${credentialUrl}/inputs">Inputs (JSON)</a>
        <a id="link-key" href="${apiBase}/api/v1/trust/public-key">Issuer keys (JSON)</a></p>
    </section>
  </main>
</body>
</html>
`;
}

/**
 * The page's script (served as text/javascript). One IIFE; its pure helpers (canonicalize, the
 * base64url and base58btc decoders, the did:key reader, the status-bit reader, the
 * eddsa-jcs-2022 proof check, given the keys document, and the envelope check) are also published on
 * `window.__trustVerify` so the unit tests can run them in a node `vm` context. Plain ES2020, no
 * template literals, no dependencies, only same-origin requests.
 */
export const VERIFY_PAGE_SCRIPT: string = (VERIFY_SCRIPT_HELPERS + VERIFY_SCRIPT_PAGE).replace('__TIERS__', JSON.stringify(BADGE_TIERS));
