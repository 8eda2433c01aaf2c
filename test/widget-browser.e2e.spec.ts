// The want-list widget in a real browser (Debian's chromium through playwright-core) against the
// real compiled app: a shop's page served from ANOTHER origin (a tiny node:http server on another
// 127.0.0.1 port) embeds `<script src="{app}/widget.js" data-seller="acme" data-theme="…" async>`.
// A three-line want list is entered with the keyboard only (one card from the row with the
// catalogue's suggestions, two written into the list as collectors paste them), each line is shown
// resolved against the catalogue before sending, the confirmation answers each line, and the buyer
// requests exist through the API (the TypeScript client). The page's aggressive styles do not change the widget's computed
// styles, nor do the widget's styles leak onto the page; errors are announced; no request leaves
// for a third origin; the themes light, dark and auto (prefers-color-scheme) are photographed.
// What buyers and sellers are told: a price over the ceiling as money in the shop's currency (in
// the card row and on a pasted line); a page of an origin the seller did not allow, and a wrong
// data-seller, get a neutral notice before anyone types (and the developer a console line naming
// the refused origin and how to allow it); every error code the OpenAPI document gives the
// widget's routes, answered in the browser, is a sentence for the buyer, never a code or raw text.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Browser, BrowserContext, Page } from 'playwright-core';

import { CommerceClient } from '@app/client';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { fetchDocument, operationsOf } from './support/openapi';

const SELLER = 'acme';
const EMAIL = 'ada.quill@example.org';
const WAIT = 10_000;

/** What a shop's stylesheet might do to everything, the widget's host element included. */
const AGGRESSIVE_CSS =
  '* { color: red !important; font-size: 40px; font-family: "Comic Sans MS", cursive !important; line-height: 3 !important; }' +
  'div { padding: 30px; border: 5px dashed purple; background: lime; display: inline !important; }' +
  'input, select, textarea, button { background: yellow !important; border-radius: 0 !important; width: 10px; }' +
  'h2 { text-transform: uppercase; } label { display: none; } [hidden] { display: block !important; }';

const UNAVAILABLE = 'Want lists aren’t available on this page right now.';

function shopPage(appUrl: string, theme: string, css: string, attributes = `data-seller="${SELLER}"`): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Cards</title><style>${css}</style></head>
<body style="margin:24px;font-family:system-ui,sans-serif"><h1 id="title">Acme Cards</h1><p id="before">Can't find your card? Tell us.</p>
<script src="${appUrl}/widget.js" ${attributes} data-theme="${theme}" async></script>
<p id="after">Open Tuesday to Saturday.</p></body></html>`;
}

// Code run in the page is written as strings: this project compiles without the DOM's types.
/** The widget's shadow root, in page code. */
const ROOT = "document.querySelector('[data-want-list-widget]').shadowRoot";

/** Computed styles of the widget's parts (its host element too), read inside its shadow root. */
function widgetStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.evaluate(`(() => {
    const host = document.querySelector('[data-want-list-widget]');
    const root = host.shadowRoot;
    const props = ['color', 'font-size', 'font-family', 'line-height', 'background-color', 'padding-top', 'border-top-width', 'display', 'width', 'text-transform', 'border-radius'];
    const pick = (el) => {
      if (!el) throw new Error('missing element');
      const cs = getComputedStyle(el);
      return Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]));
    };
    return {
      host: pick(host),
      box: pick(root.querySelector('.w')),
      title: pick(root.querySelector('h2')),
      label: pick(root.querySelector('label[for=card]')),
      card: pick(root.querySelector('#card')),
      condition: pick(root.querySelector('#condition')),
      button: pick(root.querySelector('button[type=submit]')),
      done: pick(root.querySelector('.done')),
    };
  })()`);
}

/** What the widget's focused element says of itself (`property` of it), in its shadow root. */
const focusedIn = (page: Page, property: 'id' | 'className' | 'textContent'): Promise<string | undefined> =>
  page.evaluate(`${ROOT}.activeElement?.${property}`);

/** Waits until the widget's datalist `id` holds options. */
const optionsArrive = (page: Page, id: string) => page.waitForFunction(`${ROOT}.querySelectorAll('#${id} option').length > 0`, undefined, { timeout: WAIT });

describe('the want-list widget in chromium, embedded on another origin (e2e)', () => {
  let app: RunningApp;
  let api: CommerceClient;
  let browser: Browser;
  let shop: Server;
  let shopUrl: string;
  const pages = new Map<string, string>();
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([
      startApp({ env: { RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: '1000', RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND: '1000' } }),
      launchChromium(),
    ]);
    const { apiKey } = await createWorkspace(app.dataDir, SELLER);
    api = new CommerceClient({ apiKey, baseUrl: app.url, maxRetries: 0 });
    for (const [price, sku] of [[400, 'c1'], [420, 'c2']] as const) {
      await api.inventory.create({ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price, sku });
    }
    shop = createServer((req, res) => {
      if (req.url === '/favicon.ico') return void res.writeHead(204).end();
      const html = pages.get(req.url ?? '');
      res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html ?? 'not found');
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    for (const theme of ['light', 'dark', 'auto']) {
      pages.set(`/plain-${theme}`, shopPage(app.url, theme, ''));
      pages.set(`/loud-${theme}`, shopPage(app.url, theme, AGGRESSIVE_CSS));
    }
    pages.set('/euro', shopPage(app.url, 'light', '', `data-seller="${SELLER}" data-currency="EUR"`));
    pages.set('/wrong-seller', shopPage(app.url, 'light', '', 'data-seller="acmee"'));
    pages.set('/bad-seller', shopPage(app.url, 'light', '', 'data-seller="Acme Cards"'));
    expect(new URL(shopUrl).origin).not.toBe(new URL(app.url).origin);
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

  async function open(path: string, colorScheme: 'light' | 'dark' = 'light', ready = '#card'): Promise<{ page: Page; requests: string[]; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 720, height: 900 }, colorScheme });
    contexts.push(context);
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(`${shopUrl}${path}`);
    await page.locator(ready).waitFor({ timeout: WAIT });
    return { page, requests, problems };
  }

  it('takes a three-line want list with the keyboard only, shows each line resolved, then one answer per line', async () => {
    const { page, requests, problems } = await open('/plain-light');
    // Right after its script tag, in a shadow root.
    const placement = await page.evaluate(`(() => {
      const host = document.querySelector('script[data-seller]').nextElementSibling;
      return { host: host.getAttribute('data-want-list-widget'), shadow: host.shadowRoot !== null, mode: host.shadowRoot && host.shadowRoot.mode };
    })()`);
    expect(placement).toEqual({ host: SELLER, shadow: true, mode: 'open' });
    // Every field has its label.
    for (const [id, label] of [
      ['card', 'Card name'],
      ['set', 'Set (optional)'],
      ['condition', 'Condition (at least)'],
      ['price', 'Max price (USD) (optional)'],
      ['list', 'Your want list'],
      ['email', 'Your email'],
      ['note', 'Note (optional)'],
    ]) {
      await expect(page.getByLabel(label, { exact: true }).getAttribute('id')).resolves.toBe(id);
    }

    // Keyboard only: the page has nothing focusable before the widget, so Tab lands on the card name.
    await page.keyboard.press('Tab');
    await expect(focusedIn(page, 'id')).resolves.toBe('card');
    await page.keyboard.type('Chariz');
    // The catalogue's suggestions arrive in the card field's datalist, with the card's sets.
    await optionsArrive(page, 'card-list');
    const suggested: string[] = await page.evaluate(`[...${ROOT}.querySelectorAll('#card-list option')].map((o) => o.value)`);
    expect(suggested[0]).toBe('Charizard');
    await page.keyboard.type('ard');
    await optionsArrive(page, 'set-list');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Base');
    await page.keyboard.press('Tab'); // condition: any, until one is chosen
    await expect(page.locator('#condition').inputValue()).resolves.toBe('');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('#condition').inputValue()).resolves.toBe('Near Mint');
    await page.keyboard.press('Tab');
    await page.keyboard.type('450');
    // Enter in the card row adds it to the list (it does not send the form), and the focus goes back to the card name.
    await page.keyboard.press('Enter');
    await expect(page.locator('#list').inputValue()).resolves.toBe('Charizard (Base) Near Mint max 450');
    await expect(focusedIn(page, 'id')).resolves.toBe('card');
    // The other two lines are written (pasted) straight into the list, as collectors keep them.
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('Tab');
    await expect(focusedIn(page, 'id')).resolves.toBe('list');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nPikachu (Jungle) LP $12\nChairzard BS');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Unlimited print preferred.');
    // The honeypot is out of the tab order: the next stop is the button.
    await page.keyboard.press('Tab');
    await expect(focusedIn(page, 'textContent')).resolves.toBe('Check my list');
    await page.keyboard.press('Enter');

    // Each line as the catalogue reads it, corrections said, before anything is sent.
    await page.locator('.preview').waitFor({ state: 'visible', timeout: WAIT });
    const lines = (sel: string): Promise<string[]> => page.evaluate(`[...${ROOT}.querySelectorAll('${sel} li')].map((li) => li.textContent)`);
    await expect(lines('.preview')).resolves.toEqual([
      'Charizard · Base · Near Mint or better · up to $450.00',
      'Pikachu · Jungle · Lightly Played or better · up to $12.00' + 'expanded "LP" to "Lightly Played"',
      'Charizard · Base · any condition · any price' + 'corrected "Chairzard" to "Charizard" (one letter off); resolved set code "BS" to "Base"',
    ]);
    await expect(focusedIn(page, 'textContent')).resolves.toBe('Send my want list');
    await page.locator('.w').screenshot({ path: artifactPath('widget-want-list-preview.png') });
    expect((await api.buyerRequests.list({ limit: 10 })).data).toHaveLength(0);
    await page.keyboard.press('Enter');

    await page.locator('.done').waitFor({ state: 'visible', timeout: WAIT });
    // The confirmation takes the focus, so screen readers announce it.
    await expect(focusedIn(page, 'className')).resolves.toBe('done');
    await expect(lines('.done')).resolves.toEqual([
      'Charizard · Base · Near Mint or better · up to $450.002 in stock now',
      'Pikachu · Jungle · Lightly Played or better · up to $12.00Not in stock yet: we will let you know',
      'Charizard · Base · any condition · any price2 in stock now',
    ]);
    await page.locator('.w').screenshot({ path: artifactPath('widget-want-list-answers.png') });

    const mine = await api.buyerRequests.list({ limit: 10 });
    expect(mine.data).toHaveLength(3);
    expect(mine.data.map((r) => [r.cardName, r.setName, r.condition, r.maxPrice, r.matchCount]).reverse()).toEqual([
      ['Charizard', 'Base', 'Near Mint', 450, 2],
      ['Pikachu', 'Jungle', 'Lightly Played', 12, 0],
      ['Charizard', 'Base', null, null, 2],
    ]);
    expect(mine.data[0]).toMatchObject({ source: 'widget', buyerId: expect.stringMatching(/^buyer_/), contact: { email: EMAIL, note: 'Unlimited print preferred.' } });
    // Only the shop and the app were asked for anything.
    const origins = new Set(requests.map((u) => new URL(u).origin));
    expect([...origins].sort()).toEqual([new URL(app.url).origin, shopUrl].sort());
    expect(problems).toEqual([]);
  });

  it('announces what is wrong and moves the focus to it, field by field and line by line', async () => {
    const { page } = await open('/plain-light');
    await page.locator('#email').fill('ada@');
    await page.locator('button[type=submit]').click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/^Please fix 2 fields: Add a card, or write your list \(one card per line\)\. Enter a valid email address/);
    await expect(page.locator('#list').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#email').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(focusedIn(page, 'id')).resolves.toBe('list');
    await expect(page.locator('#email').getAttribute('aria-describedby')).resolves.toBe('email-error');
    // A price in the card row is checked when the row is added.
    await page.locator('#card').fill('Charizard');
    await page.locator('#price').fill('12.345');
    await page.locator('#add').click();
    await expect(page.locator('#price-error').textContent()).resolves.toBe('Use at most 2 decimals.');
    await expect(focusedIn(page, 'id')).resolves.toBe('price');
    await page.locator('#card').fill('');
    await page.locator('#price').fill('');
    // A line the parser cannot read gets its own error, and nothing is sent.
    await page.locator('#list').fill('$12\nCharizard');
    await page.locator('#email').fill(EMAIL);
    await page.locator('button[type=submit]').click();
    await page.locator('.preview .bad').waitFor({ state: 'visible', timeout: WAIT });
    await expect(page.locator('.preview .bad').textContent()).resolves.toBe('Line 1: $12No card name on this line');
    await expect(alert.textContent()).resolves.toBe('1 line cannot be sent yet. Fix it in your list.');
    await expect(focusedIn(page, 'id')).resolves.toBe('list');
    await page.locator('.w').screenshot({ path: artifactPath('widget-errors.png') });
  });

  it.each(['light', 'dark'])("keeps the %s widget as it is under the page's aggressive styles, and its own styles in", async (theme) => {
    const plain = await open(`/plain-${theme}`);
    const loud = await open(`/loud-${theme}`);
    expect(await widgetStyles(loud.page)).toEqual(await widgetStyles(plain.page));
    // The page's own styles still apply to the page: nothing leaked out of the widget.
    const after = await loud.page.evaluate(`(() => { const cs = getComputedStyle(document.getElementById('after')); return { color: cs.color, fontSize: cs.fontSize }; })()`);
    expect(after).toEqual({ color: 'rgb(255, 0, 0)', fontSize: '40px' });
    const title = await plain.page.evaluate(`getComputedStyle(document.getElementById('title')).color`);
    expect(title).toBe('rgb(0, 0, 0)');
    await plain.page.locator('.w').screenshot({ path: artifactPath(`widget-${theme}.png`) });
    await loud.page.screenshot({ path: artifactPath(`widget-${theme}-on-loud-page.png`), fullPage: true });
  });

  it('follows the visitor\'s color scheme with data-theme="auto"', async () => {
    const background = (page: Page): Promise<string> => page.evaluate(`getComputedStyle(${ROOT}.querySelector('.w')).backgroundColor`);
    const light = await open('/plain-auto', 'light');
    const dark = await open('/plain-auto', 'dark');
    expect(await background(light.page)).toBe('rgb(255, 255, 255)');
    expect(await background(dark.page)).toBe('rgb(21, 24, 30)');
  });
  /** The widget's alert, once it says something (it is emptied when the form is sent). */
  const alertOnceSaid = async (page: Page): Promise<string> => {
    await page.waitForFunction(`${ROOT}.querySelector('[role=alert]').textContent !== ''`, undefined, { timeout: WAIT });
    return page.evaluate(`${ROOT}.querySelector('[role=alert]').textContent`);
  };

  it("says a price over the ceiling as money in the shop's currency, in the card row and on a pasted line", async () => {
    const { page, problems } = await open('/plain-light');
    await page.locator('#card').fill('Charizard');
    await page.locator('#price').fill('1,000,000,000');
    await page.locator('#add').click();
    await expect(page.locator('#price-error').textContent()).resolves.toBe('Enter a price up to $100,000,000.00.');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Enter a price up to $100,000,000.00.');
    await expect(page.locator('#list').inputValue()).resolves.toBe('');
    // Thousands separators are read as such: 1,250.50 is a thousand and more, not 1.25.
    await page.locator('#price').fill('1,250.50');
    await page.locator('#add').click();
    await expect(page.locator('#list').inputValue()).resolves.toBe('Charizard max 1250.5');
    // A pasted line over the ceiling: its own error, the ceiling as money, before anything is sent.
    await page.locator('#list').fill('Charizard $1,000,000,000\nPikachu (Jungle) LP $12');
    await page.locator('#email').fill(EMAIL);
    await page.locator('button[type=submit]').click();
    await page.locator('.preview .bad').waitFor({ state: 'visible', timeout: WAIT });
    await expect(page.locator('.preview .bad').textContent()).resolves.toBe('Line 1: Charizard $1,000,000,000Enter a price up to $100,000,000.00');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('1 line cannot be sent yet. Fix it in your list.');
    await page.locator('.w').screenshot({ path: artifactPath('widget-price-too-high.png') });
    expect(problems).toEqual([]);

    // A shop in euros says euros.
    const euro = await open('/euro');
    await expect(euro.page.getByLabel('Max price (EUR) (optional)', { exact: true }).getAttribute('id')).resolves.toBe('price');
    await euro.page.locator('#card').fill('Charizard');
    await euro.page.locator('#price').fill('250000000');
    await euro.page.locator('#add').click();
    await expect(euro.page.locator('#price-error').textContent()).resolves.toBe('Enter a price up to €100,000,000.00.');
    await euro.page.locator('#price').fill('12,50');
    await euro.page.locator('#add').click();
    await euro.page.locator('#email').fill(EMAIL);
    await euro.page.locator('button[type=submit]').click();
    await euro.page.locator('.preview').waitFor({ state: 'visible', timeout: WAIT });
    await expect(euro.page.locator('.preview li').textContent()).resolves.toBe('Charizard · any set · any condition · up to €12.50');
  });

  it('shows a page of an origin the seller did not allow a neutral notice, before anyone types, and tells the developer which origin and how to allow it', async () => {
    await api.widget.updateSettings({ allowedOrigins: ['https://shop.example'] });
    try {
      const { page, problems, requests } = await open('/plain-light', 'light', '.na');
      await expect(page.locator('.na').textContent()).resolves.toBe(UNAVAILABLE);
      // No form at all: nothing to fill in, nothing sent.
      await expect(page.locator('#card').count()).resolves.toBe(0);
      await expect(page.locator('form').count()).resolves.toBe(0);
      expect(requests.filter((u) => /want-list|card-suggestions/.test(u))).toEqual([]);
      // The seller's developer reads, in the console, the origin refused and how to allow it.
      expect(problems).toEqual([
        `Want-list widget: seller "${SELLER}" does not allow its widget on pages of ${shopUrl} (ORIGIN_NOT_ALLOWED), so buyers here see "${UNAVAILABLE}" ` +
          `To allow this page, add ${shopUrl} to the widget’s allowed origins: in the portal (Widget settings), or PUT ${app.url}/api/v1/widget/settings {"allowedOrigins": [..., "${shopUrl}"]}.`,
      ]);
      expect(problems.join('\n')).not.toMatch(/no connection/);
      await page.locator('.w').screenshot({ path: artifactPath('widget-unavailable.png') });
    } finally {
      await api.widget.updateSettings({ allowedOrigins: [] });
    }

    // Refused while the buyer is filling in the form: the same sentence, never "no connection".
    const { page, problems } = await open('/plain-light');
    await page.locator('#list').fill('Charizard');
    await page.locator('#email').fill(EMAIL);
    await api.widget.updateSettings({ allowedOrigins: ['https://shop.example'] });
    try {
      await page.locator('button[type=submit]').click();
      await expect(alertOnceSaid(page)).resolves.toBe(UNAVAILABLE);
      expect(problems.filter((p) => p.startsWith('Want-list widget:'))).toEqual([expect.stringContaining(`does not allow its widget on pages of ${shopUrl}`)]);
      // The buyer's list is still there to copy.
      await expect(page.locator('#list').inputValue()).resolves.toBe('Charizard');
    } finally {
      await api.widget.updateSettings({ allowedOrigins: [] });
    }
  });

  it('shows a wrong data-seller a short notice before anyone types, and the developer what to fix', async () => {
    const { page, problems } = await open('/wrong-seller', 'light', '.na');
    await expect(page.locator('.na').textContent()).resolves.toBe(UNAVAILABLE);
    await expect(page.locator('#card').count()).resolves.toBe(0);
    expect(problems.filter((p) => p.startsWith('Want-list widget:'))).toEqual([
      `Want-list widget: there is no seller "acmee" (the data-seller of the <script> tag), so buyers here see "${UNAVAILABLE}" ` +
        `Use your workspace’s slug: the portal’s Widget settings (or GET ${app.url}/api/v1/widget/settings) show the snippet to paste.`,
    ]);
    // A slug no seller can have (capitals, a space) is no seller either.
    const bad = await open('/bad-seller', 'light', '.na');
    await expect(bad.page.locator('.na').textContent()).resolves.toBe(UNAVAILABLE);
    expect(bad.problems.filter((p) => p.startsWith('Want-list widget:'))).toEqual([expect.stringContaining('there is no seller "Acme Cards"')]);
  });

  it('answers every error code the OpenAPI document gives the want-list routes with a sentence for the buyer', async () => {
    const document = await fetchDocument(app.url);
    const examples = (document as unknown as { components: { examples: Record<string, { value: { code: string; message: string } }> } }).components.examples;
    const answersOf = (operationId: string) =>
      operationsOf(document)
        .filter((o) => o.op.operationId === operationId)
        .flatMap((o) =>
          Object.entries(o.op.responses)
            .filter(([status]) => Number(status) >= 400)
            .flatMap(([status, response]) =>
              Object.keys((response as { content?: Record<string, { examples?: Record<string, unknown> }> }).content?.['application/json']?.examples ?? {}).map((code) => ({
                status: Number(status),
                body: examples[code].value,
              })),
            ),
        );
    const { page, problems } = await open('/plain-light');
    await page.locator('#list').fill('Charizard (Base) NM $450');
    await page.locator('#email').fill(EMAIL);
    await page.locator('button[type=submit]').click();
    await page.locator('.preview').waitFor({ state: 'visible', timeout: WAIT });
    await expect(focusedIn(page, 'textContent')).resolves.toBe('Send my want list');

    // The shop answers the want list with each refusal in turn (the browser gets it as the app would send it).
    let answer = { status: 500, body: {} as unknown };
    await page.route(`${app.url}/api/v1/public/sellers/${SELLER}/want-list`, (route) =>
      route.fulfill({ status: answer.status, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify(answer.body) }),
    );
    const said: Record<string, string> = {};
    const answers = answersOf('submitWantList');
    expect(answers.length).toBeGreaterThan(8);
    for (const each of answers) {
      answer = each;
      await page.locator('button[type=submit]').click();
      const text = await alertOnceSaid(page);
      said[(each.body as { code: string }).code] = text;
      expect([each.status, text]).not.toEqual([each.status, expect.stringMatching(/[A-Z]{3,}_[A-Z]|Invalid|expected|received|JSON|HTTP|no connection/)]);
      expect(text).not.toContain((each.body as { message: string }).message);
      expect(text).toMatch(/^[A-Z].*[.]$/);
    }
    expect(said).toMatchObject({
      VALIDATION_FAILED: 'Enter a price from $0.01 to $100,000,000.00, or none for any price.',
      PAYLOAD_TOO_LARGE: 'Your want list is too long to send. Shorten your note, or send fewer cards at a time.',
      NOT_FOUND: UNAVAILABLE,
      ORIGIN_NOT_ALLOWED: UNAVAILABLE,
      RATE_LIMITED: 'Many want lists are being sent just now. Please try again in 1 second.',
      STORAGE_FULL: 'The shop cannot take want lists just now. Please try again in 30 seconds.',
      INTERNAL: 'Something went wrong at the shop’s end. Please try again in a moment.',
    });
    // A refusal of one line of the list names the line, in the server's own words.
    answer = { status: 400, body: { code: 'VALIDATION_FAILED', message: 'x', details: { issues: [{ path: 'items.0.maxPrice', message: 'Enter a price up to $100,000,000.00' }] } } };
    await page.locator('button[type=submit]').click();
    await expect(alertOnceSaid(page)).resolves.toBe('Line 1: Enter a price up to $100,000,000.00.');
    // No answer at all (the shop unreachable, the page still allowed): said as such.
    await page.unroute(`${app.url}/api/v1/public/sellers/${SELLER}/want-list`);
    await page.route(`${app.url}/api/v1/public/sellers/${SELLER}/want-list/resolve`, (route) => route.abort('connectionrefused'));
    await page.locator('button[type=submit]').click();
    await expect(alertOnceSaid(page)).resolves.toBe('Your want list could not be sent: the shop could not be reached. Check your connection and try again.');
    await page.locator('.w').screenshot({ path: artifactPath('widget-unreachable.png') });
    // The developer reads what was unexpected; the seller's own setup, what to fix.
    expect(problems.filter((p) => p.startsWith('Want-list widget:')).length).toBeGreaterThanOrEqual(2);
  });
});
