// The trust badge as a seller embeds it, in a real browser (Debian's chromium through
// playwright-core), against the real compiled app: a shop's page on ANOTHER origin (a tiny
// node:http server on another 127.0.0.1 port) shows the badge embedded with <object>, pasted
// inline (the SVG the app serves, put in the page's HTML), and as an <img> inside an <a>. A click
// on the badge opens the seller's verification page in the whole window, through the scan link
// (which counts it) — for a seller with a credential and for a seller with no completed trade yet,
// whose badge says "New seller" (200, a well-formed SVG: parsed here by the browser's own XML
// parser), never a 404. The badge's own headers let any page frame it (the <object> would stay
// empty under `frame-ancestors 'none'` or X-Frame-Options). A slug no seller has is 404.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';

import type { Browser, BrowserContext, Page } from 'playwright-core';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { type ErrorBody, http, until } from './support/http';
import { becomeSeller } from './support/trust';

const WAIT = 10_000;
const FRESH = 'fresh-cards';
const SELLER = 'acme-cards';
type Embedding = 'object' | 'inline' | 'img';
const EMBEDDINGS: Embedding[] = ['object', 'inline', 'img'];

/** A port free right now: the app is told its public address (PUBLIC_BASE_URL) before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('the trust badge embedded on a seller\'s page, in chromium (e2e)', () => {
  let app: RunningApp;
  let base: string;
  let key: string;
  let browser: Browser;
  let shop: Server;
  let shopUrl: string;
  const contexts: BrowserContext[] = [];
  const badgeUrl = (slug: string, theme = 'light') => `${base}/api/embed/trust-badge/${slug}?theme=${theme}`;

  /** The seller's page: the badge as `how` embeds it (inline: the SVG the app serves, pasted into the HTML). */
  async function shopPage(slug: string, how: Embedding): Promise<string> {
    let badge: string;
    if (how === 'object') badge = `<object id="badge" data="${badgeUrl(slug)}" type="image/svg+xml" width="240" height="64">Our trust badge</object>`;
    else if (how === 'img') badge = `<a id="badge" href="${base}/api/embed/trust-scan/${slug}"><img src="${badgeUrl(slug)}" width="240" height="64" alt="Our seller trust badge: verify it"></a>`;
    else badge = `<div id="badge">${(await http(app.url, 'GET', `/api/embed/trust-badge/${slug}`)).text}</div>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${slug}</title></head>
<body style="margin:24px;font-family:system-ui,sans-serif"><h1>Welcome to ${slug}</h1><p>Buy with confidence:</p>${badge}<p id="after">Open Tuesday to Saturday.</p></body></html>`;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    [app, browser] = await Promise.all([startApp({ env: { PORT: String(port), PUBLIC_BASE_URL: base, TIMER_POLL_MS: '50' } }), launchChromium()]);
    expect(app.url).toBe(base);
    await createWorkspace(app.dataDir, FRESH);
    key = (await createWorkspace(app.dataDir, SELLER)).apiKey;
    await becomeSeller(app.url, key);
    shop = createServer((req, res) => {
      const m = /^\/(object|inline|img)\/([a-z0-9-]+)$/.exec(req.url ?? '');
      if (!m) return void res.writeHead(404).end();
      void shopPage(m[2], m[1] as Embedding).then((html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    expect(new URL(shopUrl).origin).not.toBe(new URL(base).origin);
  }, 90_000);

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
    if (app) {
      await app.stop();
      removeDir(app.dataDir);
    }
  }, 30_000);

  async function newPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 640, height: 400 }, colorScheme: 'light' });
    contexts.push(context);
    context.setDefaultTimeout(WAIT);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // A new seller's verification page asks for a credential it does not have yet (a 404): that is how it knows.
      if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    return { page, problems };
  }

  /** The badge rendered on the page, whatever the embedding: its box, once its drawing is there. */
  async function badgeShown(page: Page, how: Embedding): Promise<{ x: number; y: number; width: number; height: number }> {
    if (how === 'object') {
      // The badge's own document, framed by the <object>: its link is there once it loaded.
      const frame = await until('the badge framed by the <object>', async () => page.frames().find((f) => f.url().startsWith(`${base}/api/embed/trust-badge/`)), WAIT);
      await frame.waitForSelector('a[target="_top"]', { state: 'attached', timeout: WAIT });
    } else if (how === 'img') {
      await page.waitForFunction('document.images[0].complete && document.images[0].naturalWidth === 240', undefined, { timeout: WAIT });
    } else {
      await page.waitForSelector('#badge svg a', { state: 'attached', timeout: WAIT });
    }
    const box = await page.locator(how === 'object' ? '#badge' : how === 'img' ? '#badge img' : '#badge svg').boundingBox();
    if (!box) throw new Error('the badge has no box');
    return box;
  }

  it('gives a seller with no completed trade a "New seller" badge: 200, a well-formed SVG linking to its verification page, framable by any page', async () => {
    const res = await http(app.url, 'GET', `/api/embed/trust-badge/${FRESH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors *");
    expect(res.headers.get('x-frame-options')).toBeNull();
    // Parsed by the browser's XML parser: an <svg> root, no parser error, one link to the scan link, opening in the whole window.
    const { page } = await newPage();
    const parsed = await page.evaluate(`(() => {
      const doc = new DOMParser().parseFromString(${JSON.stringify(res.text)}, 'image/svg+xml');
      const a = doc.documentElement.querySelector('a');
      return {
        root: doc.documentElement.localName,
        namespace: doc.documentElement.namespaceURI,
        errors: doc.getElementsByTagName('parsererror').length,
        links: doc.querySelectorAll('a').length,
        href: a && a.getAttribute('href'),
        target: a && a.getAttribute('target'),
        title: a && a.querySelector('title').textContent,
        texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      };
    })()`);
    expect(parsed).toEqual({
      root: 'svg',
      namespace: 'http://www.w3.org/2000/svg',
      errors: 0,
      links: 1,
      href: `${base}/api/embed/trust-scan/${FRESH}?via=badge`,
      target: '_top',
      title: `Workspace ${FRESH} — new seller: no completed trade yet, so no trust score. No credential yet.`,
      texts: [`Workspace ${FRESH}`, 'New seller'],
    });
    // The same from the service's shared cache, headers included.
    const again = await http(app.url, 'GET', `/api/embed/trust-badge/${FRESH}`);
    expect([again.text, again.headers.get('content-security-policy'), again.headers.get('x-frame-options')]).toEqual([res.text, res.headers.get('content-security-policy'), null]);

    // A slug no seller has: 404, the error shape, no badge.
    const unknown = await http<ErrorBody>(app.url, 'GET', '/api/embed/trust-badge/nobody-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', details: { slug: 'nobody-here' } });
    expect(unknown.headers.get('content-type')).toContain('application/json');
  });

  it.each(EMBEDDINGS.flatMap((how) => [FRESH, SELLER].map((slug) => [how, slug] as const)))(
    'embedded with %s, the badge of %s opens the verification page in the whole window when clicked',
    async (how, slug) => {
      const { page, problems } = await newPage();
      await page.goto(`${shopUrl}/${how}/${slug}`, { timeout: WAIT });
      const box = await badgeShown(page, how);
      expect([Math.round(box.width), Math.round(box.height)]).toEqual([240, 64]);
      if (how !== 'img') await page.screenshot({ path: artifactPath(`badge-${how}-${slug}.png`) });
      await page.mouse.click(box.x + 120, box.y + 32);
      // The scan link counts the click and redirects: the page, not the badge's box, is now the verification page.
      await page.waitForURL(`${base}/verify/${slug}`, { timeout: WAIT });
      await page.waitForSelector('#verdict:not([data-state="checking"])', { timeout: WAIT });
      const verdict = await page.$eval('#verdict', (el) => [el.textContent, el.getAttribute('data-state')]);
      expect(verdict).toEqual(slug === FRESH ? ['new seller', 'new-seller'] : ['verified', 'verified']);
      expect(problems).toEqual([]);
    },
  );

  it('counts the badge clicks as scans of the seller', async () => {
    const scans = await until('the badge clicks counted', async () => {
      const res = await http<{ total: number; data: Array<{ badge: number }> }>(app.url, 'GET', '/api/v1/trust/scans', { key });
      return res.status === 200 && res.body.data.some((d) => d.badge > 0) ? res.body : undefined;
    });
    expect(scans.data.reduce((sum, d) => sum + d.badge, 0)).toBeGreaterThanOrEqual(1);
  });
});
