// The verification page, in a real browser: Debian's chromium (through playwright-core) loads
// /verify/<slug> from a tiny node:http TEST DOUBLE of the API (the app is not needed) that serves
// the page, its two assets under a strict CSP, and credentials, keys, inputs and status lists this
// test makes itself with node:crypto and zlib, signed the W3C Data Integrity way (eddsa-jcs-2022:
// Ed25519 over SHA-256(JCS(proof options)) ‖ SHA-256(JCS(document)), proofValue base58btc). The
// page must say "verified" only when the proof over the whole credential, the inputs hash, the
// validity period and the revocation bit (in a status list whose own proof verifies) all check out
// in the browser — and what was signed is a seller trust credential as issued (its type, an id its
// subject names) — and say which check failed otherwise. A credential that fails is never shown
// with its claimed score in large type: the claim is said once, in small print, as one not to rely
// on. A seller the service knows without a credential yet is a new seller, not "not verified".
import { createHash, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import canonicalize from 'canonicalize';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { badgeSvg } from '../libs/trust/src/web/badge';
import { qrSvg } from '../libs/trust/src/web/qr';
import { VERIFY_PAGE_CSS, VERIFY_PAGE_SCRIPT, verifyPageHtml } from '../libs/trust/src/web/verify-page';
import { artifactPath, launchChromium } from './support/browser';

const WAIT = 5_000;
const DAY = 86_400_000;
const CSP = "default-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; frame-ancestors 'none'";
/** The issuer's configured public base: the page must use only the status list URL's pathname. */
const ISSUER_BASE = 'https://trust.example.com';
const STATUS_BITS = 131_072;
const REVOKED_INDEX = 9;
const FORGED_INDEX = 17;

// ---- the test's own issuer: keys, credentials, inputs, status list ----

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58btc(bytes: Uint8Array): string {
  let n = BigInt('0x' + Buffer.from(bytes).toString('hex'));
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

interface TestKey {
  privateKey: KeyObject;
  kid: string;
  did: string;
  x: string;
  multibase: string;
}

function makeKey(): TestKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const multibase = 'z' + base58btc(Buffer.concat([Buffer.from([0xed, 0x01]), Buffer.from(x, 'base64url')]));
  return { privateKey, x, multibase, did: `did:key:${multibase}`, kid: `did:key:${multibase}#${multibase}` };
}

function keyEntry(key: TestKey, status: 'active' | 'retired', addedAt: string, retiredAt: string | null) {
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid, alg: 'EdDSA', use: 'sig' };
  return { kid: key.kid, publicKey: key.x, publicKeyMultibase: key.multibase, jwk, status, addedAt, retiredAt };
}

const jcs = (value: unknown): string => canonicalize(value)!;
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const sha256Bytes = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
const iso = (ms: number): string => new Date(ms).toISOString();

/** The document with an eddsa-jcs-2022 DataIntegrityProof by `key` (W3C vc-di-eddsa, written out here). */
function withProof(unsecured: Record<string, unknown>, key: TestKey, created: string): Record<string, unknown> {
  const options = { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', created, verificationMethod: key.kid, proofPurpose: 'assertionMethod' };
  const hashData = Buffer.concat([sha256Bytes(jcs({ ...options, '@context': unsecured['@context'] })), sha256Bytes(jcs(unsecured))]);
  return { ...unsecured, proof: { ...options, proofValue: 'z' + base58btc(sign(null, hashData, key.privateKey)) } };
}

function inputsFor(sellerId: string, asOf: string, count: number) {
  const trades = Array.from({ length: count }, (_, i) => {
    const at = Date.parse(asOf) - (count - i) * 3 * DAY;
    const cancelled = i % 6 === 5;
    return {
      ref: `t_${String(i).padStart(4, '0')}`,
      initiatedAt: iso(at),
      paidAt: cancelled ? null : iso(at + 3_600_000),
      shippedAt: cancelled ? null : iso(at + DAY),
      closedAt: iso(at + 2 * DAY),
      outcome: cancelled ? 'cancelled' : 'completed',
      cancelledBy: cancelled ? 'buyer' : null,
      dispute: i === 3 ? 'release' : null,
      amountMinor: 1250 + i * 100,
      currency: 'USD',
    };
  });
  return { asOf, formula: 'trust-v1', seller: sellerId, trades };
}

interface Fixture {
  credential: Record<string, unknown>;
  inputsBody: string;
}

function issue(options: {
  slug: string;
  name: string;
  key: TestKey;
  index: number;
  validFrom?: number;
  validUntil?: number;
  statusList?: string;
  score?: number | null;
  tier?: string;
  /** Top-level fields set before signing: a document the issuer's key did sign, but not as it issues credentials. */
  envelope?: Record<string, unknown>;
}): Fixture {
  const now = Date.now();
  const asOf = iso(options.validFrom ?? now - DAY);
  const sellerId = `ws_${options.slug.replace(/-/g, '')}`;
  const inputs = inputsFor(sellerId, asOf, 12);
  const inputsBody = jcs(inputs);
  const credentialId = `urn:uuid:${randomUUID()}`;
  const subject = {
    type: 'SellerTrustScore',
    credentialId,
    seller: { id: sellerId, slug: options.slug, name: options.name },
    score: options.score === undefined ? 87 : options.score,
    tier: options.tier ?? 'trusted',
    formula: 'trust-v1',
    factors: [
      { name: 'completion', value: 0.95, weight: 40, contribution: 38 },
      { name: 'dispute_free', value: 0.92, weight: 25, contribution: 23 },
      { name: 'shipping_speed', value: 0.8, weight: 20, contribution: 16 },
      { name: 'tenure', value: 0.67, weight: 15, contribution: 10 },
    ],
    inputsHash: `sha256:${sha256(inputsBody)}`,
    inputsCount: inputs.trades.length,
    asOf,
  };
  const listUrl = `${ISSUER_BASE}/api/v1/trust/status/${options.statusList ?? 'sl_1'}`;
  const unsecured = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: credentialId,
    type: ['VerifiableCredential', 'SellerTrustCredential'],
    issuer: { id: options.key.did, name: 'Collectibles Commerce API' },
    validFrom: asOf,
    validUntil: iso(options.validUntil ?? Date.parse(asOf) + 90 * DAY),
    credentialSubject: subject,
    credentialStatus: {
      id: `${listUrl}#${options.index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(options.index),
      statusListCredential: listUrl,
    },
    ...options.envelope,
  };
  return { credential: withProof(unsecured, options.key, asOf), inputsBody };
}

function encodedList(revoked: number[]): string {
  const bits = Buffer.alloc(STATUS_BITS / 8);
  for (const i of revoked) bits[i >> 3] |= 0x80 >> (i & 7);
  return 'u' + gzipSync(bits).toString('base64url');
}

/** A status list credential, signed like the issuer's (eddsa-jcs-2022, by the active key). */
function statusListCredential(listId: string, revoked: number[], key: TestKey) {
  const now = Date.now();
  const url = `${ISSUER_BASE}/api/v1/trust/status/${listId}`;
  const unsecured = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: { id: key.did, name: 'Collectibles Commerce API' },
    validFrom: iso(now - 60_000),
    validUntil: iso(now + DAY),
    credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: encodedList(revoked) },
  };
  return withProof(unsecured, key, iso(now - 60_000));
}

// ---- the API double ----

interface Route {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

function buildRoutes(): Map<string, Route> {
  const retired = makeKey();
  const active = makeKey();
  const now = Date.now();
  const routes = new Map<string, Route>();
  const json = (value: unknown, status = 200): Route => ({ status, type: 'application/json; charset=utf-8', body: JSON.stringify(value) });
  const add = (slug: string, fixture: Fixture, inputsBody = fixture.inputsBody) => {
    routes.set(`/api/v1/trust/credential/${slug}`, json(fixture.credential));
    routes.set(`/api/v1/trust/credential/${slug}/inputs`, { status: 200, type: 'application/json; charset=utf-8', body: inputsBody });
  };

  add('acme', issue({ slug: 'acme', name: 'Acme Cards', key: active, index: 7 }));
  add('rotated', issue({ slug: 'rotated', name: 'Rotated & Co', key: retired, index: 8 }));
  add('newbie', issue({ slug: 'newbie', name: 'Newbie', key: active, index: 12, score: null, tier: 'new_seller' }));

  // (b) one changed character in the subject: the score 87 became 88 after signing.
  const tampered = issue({ slug: 'tampered', name: 'Tampered Cards', key: active, index: 10 });
  const subject = tampered.credential.credentialSubject as { score: number };
  subject.score = 88;
  add('tampered', tampered);
  // (b') the issue's case: a developing seller's 62 made a 99, "Top rated", after signing.
  const inflated = issue({ slug: 'inflated', name: 'Inflated Cards', key: active, index: 20, score: 62, tier: 'developing' });
  Object.assign(inflated.credential.credentialSubject as object, { score: 99, tier: 'top_rated' });
  add('inflated', inflated);

  // (c) the inputs served are not the ones signed: one trade's amount changed.
  const badInputs = issue({ slug: 'bad-inputs', name: 'Bad Inputs', key: active, index: 11 });
  add('bad-inputs', badInputs, badInputs.inputsBody.replace('"amountMinor":1250', '"amountMinor":1251'));

  // (d) expired yesterday.
  add('expired', issue({ slug: 'expired', name: 'Expired Cards', key: active, index: 13, validFrom: now - 91 * DAY, validUntil: now - DAY }));
  // (e) revoked: its bit is set in the list.
  add('revoked', issue({ slug: 'revoked', name: 'Revoked Cards', key: active, index: REVOKED_INDEX }));
  // (h) the status list cannot be fetched.
  add('no-list', issue({ slug: 'no-list', name: 'No List', key: active, index: 14, statusList: 'sl_broken' }));

  // (k) an expired credential whose validUntil was stretched after signing (the proof is over the original).
  const stretched = issue({ slug: 'stretched', name: 'Stretched Cards', key: active, index: 15, validFrom: now - 91 * DAY, validUntil: now - DAY });
  stretched.credential.validUntil = iso(now + 30 * DAY);
  add('stretched', stretched);

  // (l) revoked, but the status list served had the bit cleared after the issuer signed it.
  add('unrevoked', issue({ slug: 'unrevoked', name: 'Unrevoked Cards', key: active, index: FORGED_INDEX, statusList: 'sl_forged' }));
  const forgedList = statusListCredential('sl_forged', [FORGED_INDEX], active);
  (forgedList.credentialSubject as { encodedList: string }).encodedList = encodedList([]);
  routes.set('/api/v1/trust/status/sl_forged', json(forgedList));

  // (m) the keys document lists a kid with another key's bytes; the credential is signed by those bytes.
  const named = makeKey();
  const impostor = makeKey();
  add('mislabelled', issue({ slug: 'mislabelled', name: 'Mislabelled', key: { ...impostor, kid: named.kid, did: named.did }, index: 16 }));

  // (n) signed by the issuer's own key, but as another kind of credential; (o) under an id its subject does not name.
  add('other-type', issue({ slug: 'other-type', name: 'Other Type', key: active, index: 18, envelope: { type: ['VerifiableCredential', 'BitstringStatusListCredential'] } }));
  add('other-id', issue({ slug: 'other-id', name: 'Other Id', key: active, index: 19, envelope: { id: `urn:uuid:${randomUUID()}` } }));

  routes.set('/api/v1/trust/status/sl_1', json(statusListCredential('sl_1', [REVOKED_INDEX, 4000], active)));
  routes.set('/api/v1/trust/status/sl_broken', json({ code: 'INTERNAL', message: 'boom' }, 500));
  routes.set(
    '/api/v1/trust/public-key',
    json({
      publicKey: active.x,
      kid: active.kid,
      publicKeyMultibase: active.multibase,
      jwk: keyEntry(active, 'active', '', null).jwk,
      keys: [
        keyEntry(active, 'active', iso(now - 30 * DAY), null),
        keyEntry(retired, 'retired', iso(now - 400 * DAY), iso(now - 30 * DAY)),
        { ...keyEntry(impostor, 'retired', iso(now - 500 * DAY), iso(now - 400 * DAY)), kid: named.kid },
      ],
    }),
  );
  // The embeds, for a look in the browser: badges in both themes and the QR code.
  const svg = (body: string): Route => ({ status: 200, type: 'image/svg+xml', body });
  const badge = { sellerName: 'Acme <Cards> & "Co"', slug: 'acme', score: 87, tier: 'trusted' } as const;
  routes.set('/embed/badge-light', svg(badgeSvg({ ...badge, theme: 'light' })));
  routes.set('/embed/badge-dark', svg(badgeSvg({ ...badge, theme: 'dark' })));
  routes.set('/embed/badge-top', svg(badgeSvg({ ...badge, sellerName: 'Mint Condition Collectibles Emporium', score: 97, tier: 'top_rated', theme: 'light' })));
  routes.set('/embed/badge-new', svg(badgeSvg({ ...badge, sellerName: 'Newbie', score: null, tier: 'new_seller', theme: 'dark' })));
  routes.set('/embed/badge-revoked', svg(badgeSvg({ ...badge, score: null, tier: 'revoked', theme: 'light' })));
  routes.set('/embed/qr', svg(qrSvg('https://cards.example.com/verify/acme', { label: 'Verify Acme Cards' })));
  routes.set('/embed/preview', {
    status: 200,
    type: 'text/html; charset=utf-8',
    headers: { 'content-security-policy': CSP },
    body:
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embeds</title></head><body>' +
      '<p><img id="b1" src="/embed/badge-light" alt=""> <img id="b3" src="/embed/badge-top" alt=""></p>' +
      '<p><img id="b2" src="/embed/badge-dark" alt=""> <img id="b4" src="/embed/badge-new" alt=""></p>' +
      '<p><img id="b5" src="/embed/badge-revoked" alt=""></p><p><img id="qr" src="/embed/qr" alt=""></p></body></html>',
  });
  routes.set('/verify/assets/verify.js', { status: 200, type: 'text/javascript; charset=utf-8', body: VERIFY_PAGE_SCRIPT });
  routes.set('/verify/assets/verify.css', { status: 200, type: 'text/css; charset=utf-8', body: VERIFY_PAGE_CSS });
  return routes;
}

function serve(routes: Map<string, Route>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = /^\/verify\/([^/]+)$/.exec(path);
    const route: Route | undefined = page
      ? {
          status: 200,
          type: 'text/html; charset=utf-8',
          // The app tells the page about a seller it knows without a credential yet: the double, about "fresh-cards".
          body: verifyPageHtml({ slug: decodeURIComponent(page[1]), newSeller: page[1] === 'fresh-cards' ? { name: 'Fresh Cards' } : null }),
          headers: { 'content-security-policy': CSP },
        }
      : routes.get(path);
    const answer = route ?? { status: 404, type: 'application/json; charset=utf-8', body: JSON.stringify({ code: 'NOT_FOUND', message: 'Not found' }) };
    res.writeHead(answer.status, { 'content-type': answer.type, 'x-content-type-options': 'nosniff', ...answer.headers });
    res.end(answer.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---- the browser ----

interface Opened {
  page: Page;
  context: BrowserContext;
  requests: string[];
  problems: string[];
}

type Checks = Record<string, { ok: string | null; detail: string }>;

describe('the verification page in chromium (e2e, API test double)', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await serve(buildRoutes());
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  /** Opens /verify/<slug> and waits (bounded) until the verdict is no longer "checking". */
  async function open(slug: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Opened> {
    const context = await browser.newContext({ colorScheme, viewport: { width: 900, height: 900 } });
    contexts.push(context);
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(`${origin}/verify/${encodeURIComponent(slug)}`, { timeout: WAIT });
    await page.waitForSelector('#verdict:not([data-state="checking"])', { timeout: WAIT });
    return { page, context, requests, problems };
  }

  async function verdict(page: Page) {
    return page.$eval('#verdict', (el) => ({ text: el.textContent, state: el.getAttribute('data-state') }));
  }

  async function checks(page: Page): Promise<Checks> {
    const items = await page.$$eval('li[data-check]', (lis) =>
      lis.map((li) => [li.getAttribute('data-check')!, { ok: li.getAttribute('data-ok'), detail: li.querySelector('.check-detail')!.textContent! }] as const),
    );
    return Object.fromEntries(items);
  }

  function expectClean(opened: Opened): void {
    expect(opened.problems).toEqual([]); // no script errors, no CSP violations
    for (const url of opened.requests) expect(url.startsWith(`${origin}/`)).toBe(true); // nothing third-party
  }

  function okStates(c: Checks): Record<string, string | null> {
    return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.ok]));
  }

  /** Page code: each visible element whose own text contains `needle`, with its font size (px). */
  const visibleTextsWith = (needle: string): string => `[...document.querySelectorAll('body *')]
    .filter((el) => el.getClientRects().length > 0 && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes(${JSON.stringify(needle)})))
    .map((el) => ({ text: el.textContent, size: parseFloat(getComputedStyle(el).fontSize) }))`;

  /** The claimed score is shown only inside `claim`, in type no larger than the body's; no score, tier pill or factors. */
  async function expectClaimOnly(page: Page, score: string, claim: string): Promise<void> {
    expect(await page.isVisible('#score-box')).toBe(false);
    expect(await page.isVisible('#score')).toBe(false);
    expect(await page.isVisible('#tier')).toBe(false);
    expect(await page.isVisible('#factors-section')).toBe(false);
    expect(await page.isVisible('#claimed')).toBe(true);
    expect(await page.textContent('#claimed')).toBe(claim);
    const shown = (await page.evaluate(visibleTextsWith(score))) as Array<{ text: string; size: number }>;
    const body = (await page.evaluate(`parseFloat(getComputedStyle(document.body).fontSize)`)) as number;
    expect(shown.map((s) => s.text)).toEqual([claim]);
    for (const { size } of shown) expect(size).toBeLessThanOrEqual(body);
  }

  it('(a) says "verified" for a good credential, with every check and the factors table', async () => {
    const opened = await open('acme');
    const { page } = opened;
    expect(await verdict(page)).toEqual({ text: 'verified', state: 'verified' });
    const c = await checks(page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toBe(
      'The eddsa-jcs-2022 proof over the whole credential (validity period and status entry included) matches the issuer’s key.',
    );
    expect(c.inputs.detail).toMatch(/^The 12 trades behind the score hash to the signed sha256:/);
    expect(c.status.detail).toBe('Not revoked (bit 7 of the issuer’s status list is clear).');
    expect(await page.title()).toBe('Verify Acme Cards — seller trust credential');
    expect(await page.textContent('#seller-name')).toBe('Acme Cards');
    expect(await page.textContent('#score')).toBe('87/100');
    expect(await page.textContent('#tier')).toBe('Trusted');
    const rows = await page.$$eval('#factors tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    expect(rows).toEqual([
      ['completion', '0.95', '40', '38'],
      ['dispute_free', '0.92', '25', '23'],
      ['shipping_speed', '0.8', '20', '16'],
      ['tenure', '0.67', '15', '10'],
    ]);
    expect(await page.textContent('#issuer-name')).toBe('Collectibles Commerce API');
    expect(await page.textContent('#key-id')).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+#z6Mk/);
    expect(await page.getAttribute('.verdict-box', 'aria-live')).toBe('polite');
    expectClean(opened);
    // The credential in its data-integrity form, then the status list by its pathname, on this origin.
    expect(opened.requests).toContain(`${origin}/api/v1/trust/credential/acme?proof=data-integrity`);
    expect(opened.requests).toContain(`${origin}/api/v1/trust/status/sl_1`);
    expect(opened.requests.filter((u) => u.endsWith('/public-key'))).toHaveLength(1);
    await page.screenshot({ path: artifactPath('verify-verified-light.png'), fullPage: true });

    const dark = await open('acme', 'dark');
    expect(await verdict(dark.page)).toEqual({ text: 'verified', state: 'verified' });
    await dark.page.screenshot({ path: artifactPath('verify-verified-dark.png'), fullPage: true });
  });

  it('(b) says "not verified" when one character of the signed subject changed', async () => {
    const opened = await open('tampered');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toBe('The Ed25519 signature does not match the credential: it was changed after it was signed.');
    // The claimed score is not shown as a score: once, in small print, as a claim not to rely on.
    await expectClaimOnly(opened.page, '88/100', 'This credential claims a score of 88/100 (Trusted), but it did not verify: do not rely on it.');
    expectClean(opened);
    await opened.page.screenshot({ path: artifactPath('verify-tampered-light.png'), fullPage: true });
    const dark = await open('tampered', 'dark');
    await dark.page.screenshot({ path: artifactPath('verify-tampered-dark.png'), fullPage: true });
  });

  it('(b\') shows an inflated "99/100 Top rated" only as an unverified claim in small print, never large', async () => {
    const opened = await open('inflated');
    const { page } = opened;
    expect(await verdict(page)).toEqual({ text: 'not verified', state: 'not-verified' });
    expect(okStates(await checks(page))).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    await expectClaimOnly(page, '99/100', 'This credential claims a score of 99/100 (Top rated), but it did not verify: do not rely on it.');
    // "Top rated" appears nowhere but in that sentence (no tier pill).
    expect(await page.evaluate(visibleTextsWith('Top rated'))).toEqual([
      { text: 'This credential claims a score of 99/100 (Top rated), but it did not verify: do not rely on it.', size: expect.any(Number) },
    ]);
    expect(await page.textContent('#verdict-detail')).toBe('1 of 4 checks failed; see below.');
    expectClean(opened);
    await page.screenshot({ path: artifactPath('verify-inflated-light.png'), fullPage: true });
    const dark = await open('inflated', 'dark');
    await expectClaimOnly(dark.page, '99/100', 'This credential claims a score of 99/100 (Top rated), but it did not verify: do not rely on it.');
    await dark.page.screenshot({ path: artifactPath('verify-inflated-dark.png'), fullPage: true });
  });

  it('(c) fails the inputs check when the inputs body was tampered with', async () => {
    const opened = await open('bad-inputs');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    await expectClaimOnly(opened.page, '87/100', 'This credential claims a score of 87/100 (Trusted), but it did not verify: do not rely on it.');
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'false', validity: 'true', status: 'true' });
    expect(c.inputs.detail).toMatch(/^The published inputs hash to sha256:[0-9a-f]{16}…, not the signed sha256:/);
    expectClean(opened);
  });

  it('(d) fails the validity check for an expired credential', async () => {
    const opened = await open('expired');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'true', validity: 'false', status: 'true' });
    expect(c.validity.detail).toMatch(/^Expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expectClean(opened);
  });

  it('(e) fails the status check when the credential’s bit is set in the status list', async () => {
    const opened = await open('revoked');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'true', validity: 'true', status: 'false' });
    expect(c.status.detail).toBe(`Revoked: the issuer set bit ${REVOKED_INDEX} of its status list.`);
    expectClean(opened);
  });

  it('(f) shows a readable error for a seller without a credential (404)', async () => {
    const opened = await open('nobody-here');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    expect(await opened.page.isVisible('#error')).toBe(true);
    expect(await opened.page.textContent('#error')).toBe('No credential for this seller.');
    expect(await opened.page.isVisible('#error-hint')).toBe(true);
    expect(await opened.page.isVisible('#checks-section')).toBe(false);
    expect(await opened.page.isVisible('#subject')).toBe(false);
    expectClean(opened);
    await opened.page.screenshot({ path: artifactPath('verify-not-found-light.png'), fullPage: true });
  });

  it('(f\') says a seller the service knows without a credential yet is a new seller, with nothing to verify', async () => {
    const opened = await open('fresh-cards');
    expect(await verdict(opened.page)).toEqual({ text: 'new seller', state: 'new-seller' });
    expect(await opened.page.textContent('#verdict-detail')).toBe(
      'Fresh Cards is a new seller: no trade of theirs has completed yet, so there is no trust score to check. A seller gets a signed credential when their first trade completes.',
    );
    expect(await opened.page.isVisible('#error')).toBe(false);
    expect(await opened.page.isVisible('#checks-section')).toBe(false);
    expect(await opened.page.isVisible('#subject')).toBe(false);
    expectClean(opened);
    await opened.page.screenshot({ path: artifactPath('verify-new-seller-light.png'), fullPage: true });
  });

  it('(g) verifies a credential signed by a retired key that is still published', async () => {
    const opened = await open('rotated');
    expect(await verdict(opened.page)).toEqual({ text: 'verified', state: 'verified' });
    expect((await checks(opened.page)).signature.detail).toMatch(/a retired key, still valid/);
    expect(await opened.page.textContent('#seller-name')).toBe('Rotated & Co');
    expectClean(opened);
  });

  it('(h) fails the status check, with its reason, when the status list cannot be fetched', async () => {
    const opened = await open('no-list');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'true', validity: 'true', status: 'false' });
    expect(c.status.detail).toBe('Could not check: /api/v1/trust/status/sl_broken answered HTTP 500.');
  });

  it('(i) shows a new seller without a score, and a hostile slug stays text', async () => {
    const opened = await open('newbie');
    expect(await verdict(opened.page)).toEqual({ text: 'verified', state: 'verified' });
    expect(await opened.page.textContent('#score')).toBe('New seller');
    expect(await opened.page.textContent('#tier')).toBe('New seller');

    const hostile = `"><img src=x onerror=alert(1)><script>alert(1)</script>`;
    const bad = await open(hostile);
    expect(await bad.page.textContent('#seller-slug')).toBe(hostile);
    expect(await bad.page.$$('img')).toHaveLength(0);
    expect(await bad.page.textContent('#error')).toBe('No credential for this seller.');
    expect(bad.problems).toEqual([]);
  });

  it('(j) renders the badge and the QR code as well-formed SVG images', async () => {
    const context = await browser.newContext({ viewport: { width: 520, height: 640 } });
    contexts.push(context);
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    // Each SVG parses as XML (an XML error would show a parsererror page, not an <svg> root).
    for (const name of ['badge-light', 'badge-dark', 'badge-top', 'badge-new', 'badge-revoked', 'qr']) {
      await page.goto(`${origin}/embed/${name}`, { timeout: WAIT });
      expect(await page.$eval(':root', (root) => [root.localName, root.querySelector('parsererror')])).toEqual(['svg', null]);
    }
    await page.goto(`${origin}/embed/preview`, { timeout: WAIT });
    await page.waitForFunction('[...document.images].every((img) => img.complete && img.naturalWidth > 0)', undefined, { timeout: WAIT });
    const sizes = await page.$$eval('img', (imgs) => imgs.map((img) => `${img.getAttribute('id')} ${String(Reflect.get(img, 'naturalWidth'))}x${String(Reflect.get(img, 'naturalHeight'))}`));
    expect(sizes).toEqual(['b1 240x64', 'b3 240x64', 'b2 240x64', 'b4 240x64', 'b5 240x64', 'qr 296x336']);
    await page.screenshot({ path: artifactPath('embeds.png'), fullPage: true });
  });

  it('(k) fails the signature check when an expired credential\'s validUntil was stretched after signing', async () => {
    const opened = await open('stretched');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    // The stretched period itself reads as current: only the proof over the whole credential catches it.
    expect(okStates(c)).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toBe('The Ed25519 signature does not match the credential: it was changed after it was signed.');
    expectClean(opened);
    await opened.page.screenshot({ path: artifactPath('verify-stretched-light.png'), fullPage: true });
  });

  it('(l) fails the status check when the status list\'s bits were altered after it was signed', async () => {
    const opened = await open('unrevoked');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'true', validity: 'true', status: 'false' });
    expect(c.status.detail).toBe(
      'The status list signature does not verify (the Ed25519 signature does not match the status list: it was changed after it was signed), so its bits cannot be trusted.',
    );
    expect(opened.requests).toContain(`${origin}/api/v1/trust/status/sl_forged`);
    expectClean(opened);
    await opened.page.screenshot({ path: artifactPath('verify-forged-list-light.png'), fullPage: true });
  });

  it('(m) fails the signature check when the published key is not the key its kid names', async () => {
    const opened = await open('mislabelled');
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toMatch(/^The published key is not the key its id did:key:z6Mk\S+ names\.$/);
    expectClean(opened);
  });

  it.each([
    ['(n)', 'other-type', /^The issuer’s key signed it, but it is not a seller trust credential \(its type is \["VerifiableCredential","BitstringStatusListCredential"\]\)\.$/],
    ['(o)', 'other-id', /^The issuer’s key signed it, but its subject names the credential urn:uuid:\S+, not urn:uuid:\S+\.$/],
  ])('%s fails the signature check for a document the issuer\'s key signed, but not as one of its credentials (%s)', async (_case, slug, detail) => {
    const opened = await open(slug);
    expect(await verdict(opened.page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(opened.page);
    expect(okStates(c)).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toMatch(detail);
    expectClean(opened);
  });
});
