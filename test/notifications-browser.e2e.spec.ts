// The portal's Buyer emails page in Chromium (Debian's /usr/bin/chromium) against the real app with
// no SMTP_URL (the outbox): the seller sets the shop's name and URL (a bad URL refused on the
// page), sees the preview rendered with them, the email a widget buyer got listed by buyer id
// (never the address), filters by buyer, and opens the message from the outbox. No script error,
// nothing the CSP blocks. A screenshot goes to docs/notifications/ for the README.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { http } from './support/http';
import { createPortalUser, PASSWORD } from './support/portal';
import { eventually } from './support/smtp-sink';

const WAIT = 15_000;

describe('the Buyer emails page of the portal in chromium (e2e)', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let buyerId: string;
  const problems: string[] = [];

  beforeAll(async () => {
    app = await startApp({ env: { TIMER_POLL_MS: '100' } });
    const { apiKey } = await createWorkspace(app.dataDir, 'shop');
    await createPortalUser(app.dataDir, 'shop', 'owner@shop.example');
    // A widget buyer whose card is in stock: one email in the outbox.
    await http(app.url, 'POST', '/api/v1/inventory', { key: apiKey, body: { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 420 } });
    const wanted = await http<{ buyerId: string }>(app.url, 'POST', '/api/v1/public/sellers/shop/want-list', {
      body: { items: [{ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450 }], email: 'sam.collector@example.org' },
    });
    expect(wanted.status).toBe(201);
    buyerId = wanted.body.buyerId;
    await eventually('the email in the outbox', async () => (await http<{ data: unknown[] }>(app.url, 'GET', '/api/v1/notifications/outbox', { key: apiKey })).body.data.length > 0, 30_000);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    context.setDefaultTimeout(WAIT);
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    if (app) removeDir(app.dataDir);
  });

  it('sets the shop, previews the email, lists it by buyer id and shows it from the outbox', async () => {
    await page.goto(`${app.url}/portal`);
    await page.getByLabel('Workspace').fill('shop');
    await page.getByLabel('Email').fill('owner@shop.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Buyer emails' }).click();
    await page.getByRole('heading', { name: 'Buyer emails' }).waitFor();

    await page.getByLabel('Shop name (From and subject)').fill('Acme Cards');
    await page.getByLabel('Shop URL (https)').fill('http://shop.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('VALIDATION_FAILED').first().waitFor();
    await page.getByLabel('Shop URL (https)').fill('https://shop.acme.example');
    await page.getByLabel('Reply-to address').fill('hello@acme.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#n-preview').getByText('2 cards from your want list are in stock at Acme Cards').waitFor();
    expect(await page.locator('#n-preview pre').textContent()).toContain('See it in the shop: https://shop.acme.example');

    const row = page.locator('#n-list tbody tr').first();
    expect(await row.locator('code').textContent()).toBe(buyerId);
    expect(await row.locator('.badge').textContent()).toBe('sent');
    expect(await page.locator('#n-list').textContent()).not.toContain('sam.collector');
    await page.getByLabel('Buyer id').fill('buyer_aaaaaaaaaaaaaaaaaaaaaaaaaa');
    await page.getByRole('search', { name: 'Filter emails by buyer' }).getByRole('button', { name: 'Show' }).click();
    await page.locator('#n-list').getByText('No emails yet.').waitFor();
    await page.getByLabel('Buyer id').fill(buyerId);
    await page.getByRole('search', { name: 'Filter emails by buyer' }).getByRole('button', { name: 'Show' }).click();
    await page.locator('#n-list tbody tr').first().waitFor();

    await page.locator('#n-outbox').getByRole('button', { name: 'Show' }).first().click();
    await page.locator('#n-outbox pre').getByText('List-Unsubscribe-Post: List-Unsubscribe=One-Click').waitFor();
    await page.screenshot({ path: artifactPath('portal-buyer-emails.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 60_000);
});
