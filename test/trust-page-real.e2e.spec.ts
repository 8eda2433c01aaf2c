// The verification page against the REAL app: the compiled API (dist/) boots as a child process,
// a workspace completes one trade so that a credential is issued, and Debian's chromium opens
// /verify/<slug> as a visitor would — the real server's CSP, content types, assets, credential
// (data-integrity form), keys, inputs and signed status list. The page must say "verified" with
// every check passed; when the served credential is changed in flight (one character of
// credentialSubject, or a stretched validUntil) it must say "not verified", the signature check
// failing, and show what it claims only as an unverified claim in small print.
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { http, until } from './support/http';

const SLUG = 'pika-cards';
const SELLER_NAME = `Workspace ${SLUG}`;
const WAIT = 10_000;
/** The issuer's public base differs from the app's address: the page must follow the status list's pathname only. */
const ENV = { PUBLIC_BASE_URL: 'https://trust.example', TIMER_POLL_MS: '50' };
const CREDENTIAL_PATH = `/api/v1/trust/credential/${SLUG}`;

interface Opened {
  page: Page;
  requests: string[];
  problems: string[];
}
type Checks = Record<string, { ok: string | null; detail: string }>;

describe('the verification page in chromium against the real app (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const call = <T>(method: string, path: string, body?: unknown) => http<T>(app.url, method, path, { key, body });

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ env: ENV }), launchChromium()]);
    key = (await createWorkspace(app.dataDir, SLUG)).apiKey;
    const item = await call<{ id: string }>('POST', '/api/v1/inventory', { cardName: 'Pikachu', setName: 'Base', condition: 'Near Mint', price: 100 });
    expect(item.status).toBe(201);
    const trade = await call<{ id: string }>('POST', '/api/v1/trades', { inventoryItemId: item.body.id });
    expect(trade.status).toBe(201);
    for (const to of ['paid', 'shipped', 'delivered', 'completed']) {
      const moved = await call('POST', `/api/v1/trades/${trade.body.id}/transitions`, { to });
      expect([to, moved.status]).toEqual([to, 200]);
    }
    await until('the credential', async () => ((await http(app.url, 'GET', CREDENTIAL_PATH)).status === 200 ? true : undefined), 15_000);
  }, 90_000);

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await browser?.close();
    if (app) {
      await app.stop();
      removeDir(app.dataDir);
    }
  }, 30_000);

  /** Opens /verify/<slug> (optionally rewriting the credential the server serves) and waits, bounded, for the verdict. */
  async function open(rewrite?: (body: string) => string): Promise<Opened> {
    const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 900, height: 900 } });
    contexts.push(context);
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // A failed load is reported below with its URL; the browser's own favicon probe may 404.
      if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    if (rewrite) {
      await page.route(
        (url) => url.pathname === CREDENTIAL_PATH,
        async (route: Route) => {
          const response = await route.fetch({ timeout: WAIT });
          await route.fulfill({ response, body: rewrite(await response.text()) });
        },
      );
    }
    const answer = await page.goto(`${app.url}/verify/${SLUG}`, { timeout: WAIT });
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('#verdict:not([data-state="checking"])', { timeout: WAIT });
    return { page, requests, problems };
  }

  const verdict = (page: Page) => page.$eval('#verdict', (el) => ({ text: el.textContent, state: el.getAttribute('data-state') }));

  async function checks(page: Page): Promise<Checks> {
    const items = await page.$$eval('li[data-check]', (lis) =>
      lis.map((li) => [li.getAttribute('data-check')!, { ok: li.getAttribute('data-ok'), detail: li.querySelector('.check-detail')!.textContent! }] as const),
    );
    return Object.fromEntries(items);
  }

  const okStates = (c: Checks) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.ok]));

  /** `body` with the first `from` (which must occur once) replaced by `to`, checked to differ in exactly one character. */
  function oneCharacter(body: string, from: string, to: string): string {
    expect(body.split(from)).toHaveLength(2);
    expect(from).toHaveLength(to.length);
    expect([...from].filter((ch, i) => ch !== to[i])).toHaveLength(1);
    return body.replace(from, to);
  }

  it('serves the page and its assets with the real CSP and content types, and says "verified" with every check passed', async () => {
    const html = await http(app.url, 'GET', `/verify/${SLUG}`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect((await http(app.url, 'GET', '/verify/assets/verify.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await http(app.url, 'GET', '/verify/assets/verify.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');

    const served = await http<{ credentialStatus: { statusListCredential: string } }>(app.url, 'GET', CREDENTIAL_PATH);
    const statusListUrl = new URL(served.body.credentialStatus.statusListCredential);
    expect(statusListUrl.origin).toBe(ENV.PUBLIC_BASE_URL);
    const statusPath = statusListUrl.pathname;

    const { page, requests, problems } = await open();
    expect(await verdict(page)).toEqual({ text: 'verified', state: 'verified' });
    const c = await checks(page);
    expect(okStates(c)).toEqual({ signature: 'true', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toBe('The eddsa-jcs-2022 proof over the whole credential (validity period and status entry included) matches the issuer’s key.');
    expect(c.inputs.detail).toMatch(/^The 1 trade behind the score hashes to the signed sha256:[0-9a-f]{16}…$/);
    expect(c.validity.detail).toMatch(/^Valid now, until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expect(c.status.detail).toBe('Not revoked (bit 0 of the issuer’s status list is clear).');
    expect(await page.textContent('#seller-name')).toBe(SELLER_NAME);
    expect(await page.textContent('#tier')).toBe('New seller');
    expect(await page.textContent('#inputs-count')).toBe('1 trade');
    expect(await page.textContent('#key-id')).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+#z6Mk/);
    expect(problems).toEqual([]); // no script error, no CSP violation
    // Everything on the app's own origin: the data-integrity credential, the keys, the inputs, the status list by its pathname.
    for (const url of requests) expect(url.startsWith(`${app.url}/`)).toBe(true);
    const paths = requests.map((u) => new URL(u).pathname + new URL(u).search).sort();
    expect(paths).toEqual(
      [
        `/verify/${SLUG}`,
        '/verify/assets/verify.css',
        '/verify/assets/verify.js',
        `${CREDENTIAL_PATH}?proof=data-integrity`,
        '/api/v1/trust/public-key',
        `${CREDENTIAL_PATH}/inputs`,
        statusPath,
      ].sort(),
    );
    await page.screenshot({ path: artifactPath('real-verify-verified.png'), fullPage: true });
  });

  it('says "not verified" when one character of the served credentialSubject is changed in flight', async () => {
    const { page, problems } = await open((body) => oneCharacter(body, `"name":"${SELLER_NAME}"`, `"name":"${SELLER_NAME.slice(0, -1)}z"`));
    expect(await verdict(page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(page);
    expect(okStates(c)).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    expect(c.signature.detail).toBe('The Ed25519 signature does not match the credential: it was changed after it was signed.');
    expect(await page.textContent('#seller-name')).toBe(`${SELLER_NAME.slice(0, -1)}z`);
    expect(await page.textContent('#verdict-detail')).toBe('1 of 4 checks failed; see below.');
    // What it claims, once and in small print, never as a score or a tier in large type.
    expect(await page.isVisible('#score')).toBe(false);
    expect(await page.isVisible('#tier')).toBe(false);
    expect(await page.textContent('#claimed')).toBe('This credential claims the tier New seller, but it did not verify: do not rely on it.');
    expect(await page.isVisible('#claimed')).toBe(true);
    expect(problems).toEqual([]);
    await page.screenshot({ path: artifactPath('real-verify-tampered.png'), fullPage: true });
  });

  it('says "not verified" when the served validUntil is stretched: the proof covers the validity period', async () => {
    const { page, problems } = await open((body) => {
      const credential = JSON.parse(body) as { validUntil: string };
      return body.replace(`"validUntil":"${credential.validUntil}"`, '"validUntil":"2099-12-31T23:59:59.000Z"');
    });
    expect(await verdict(page)).toEqual({ text: 'not verified', state: 'not-verified' });
    const c = await checks(page);
    expect(okStates(c)).toEqual({ signature: 'false', inputs: 'true', validity: 'true', status: 'true' });
    expect(await page.textContent('#valid-until')).toBe('2099-12-31 23:59 UTC');
    expect(problems).toEqual([]);
  });
});
