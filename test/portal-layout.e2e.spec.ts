// Every portal page in Chromium at a phone's width (390 px) and a laptop's (1280 px), filled with
// real data (long names, URLs and ids): the page never scrolls sideways, and nothing reaches past
// the screen's edge unless it sits in a box of its own that scrolls (a table's box, a <pre>).
// The header keeps Sign out on screen. A full-page screenshot of each goes to test/artifacts/
// (portal-<width>-<page>.png).
import { type Browser, type BrowserContext, type Page } from 'playwright-core';

import { CommerceClient } from '@app/client';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { http, until } from './support/http';
import { createPortalUser, pageOverflow, PASSWORD } from './support/portal';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV as WEBHOOK_ENV } from './support/webhooks';

const WAIT = 20_000;
const EMAIL = 'owner.with-a-rather-long-address@collectibles-shop.example';
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];

describe('every portal page at 390 px and 1280 px (e2e)', () => {
  let app: RunningApp;
  let browser: Browser;
  let webhookId: string;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    receiver.on('/hooks/storefront-sync/with-a-rather-long-path-for-the-receiver', () => ({ status: 200, body: 'ok' }));
    app = await startApp({ env: { ...WEBHOOK_ENV, TIMER_POLL_MS: '100' } });
    const { apiKey } = await createWorkspace(app.dataDir, 'shop');
    const admin = new CommerceClient({ apiKey, baseUrl: app.url, maxRetries: 0 });
    await createPortalUser(app.dataDir, 'shop', EMAIL);
    await admin.apiKeys.create({ name: 'Storefront synchronisation, read only, for the night batch', scopes: ['read:requests', 'read:inventory', 'read:trades', 'read:webhooks'] });
    const hook = await admin.webhooks.create({ url: receiver.url('/hooks/storefront-sync/with-a-rather-long-path-for-the-receiver'), events: ['buyer_request.created'], description: 'Storefront sync' });
    webhookId = hook.id;
    for (const maxPrice of [100, 200]) await admin.buyerRequests.create({ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice });
    await until('two deliveries', async () => ((await admin.webhooks.listDeliveries(webhookId, { status: 'succeeded' })).data.length === 2 ? true : undefined), 30_000);
    // A widget buyer's email in the outbox, and the widget's allowed origins.
    await http(app.url, 'POST', '/api/v1/inventory', { key: apiKey, body: { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 420 } });
    const wanted = await http(app.url, 'POST', '/api/v1/public/sellers/shop/want-list', {
      body: { items: [{ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450 }], email: 'sam.collector@example.org' },
    });
    expect(wanted.status).toBe(201);
    await http(app.url, 'PUT', '/api/v1/widget/settings', { key: apiKey, body: { allowedOrigins: ['https://shop.example', 'https://a-second-storefront-with-a-long-name.example:8443'] } });
    await until('the email in the outbox', async () => ((await http<{ data: unknown[] }>(app.url, 'GET', '/api/v1/notifications/outbox', { key: apiKey })).body.data.length > 0 ? true : undefined), 30_000);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeDir(app.dataDir);
    await receiver.stop();
  });

  for (const viewport of VIEWPORTS) {
    it(`fits ${viewport.width} px: no page scrolls sideways, Sign out stays on screen`, async () => {
      const context: BrowserContext = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      context.setDefaultTimeout(WAIT);
      const page: Page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
      const check = async (name: string) => {
        const found = await pageOverflow(page);
        for (const problem of found.slice(0, 8)) problems.push(`${viewport.width} px, ${name}: ${problem}`);
        if (found.length > 8) problems.push(`${viewport.width} px, ${name}: … and ${found.length - 8} more`);
        await page.screenshot({ path: artifactPath(`portal-${viewport.width}-${name}.png`), fullPage: true });
      };
      try {
        await page.goto(`${app.url}/portal/`);
        await page.getByLabel('Workspace').fill('shop');
        await page.getByLabel('Email').fill(EMAIL);
        await page.getByLabel('Password').fill('not the password, of course');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').waitFor();
        await check('sign-in');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();

        await page.getByRole('heading', { name: 'API Keys' }).waitFor();
        await page.getByRole('cell', { name: 'Storefront synchronisation, read only, for the night batch' }).waitFor();
        // Sign out is on screen, whole, and the header fits.
        const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
        if (!signOut || signOut.x < 0 || signOut.x + signOut.width > viewport.width) problems.push(`${viewport.width} px: Sign out is off screen (${JSON.stringify(signOut)})`);
        await check('keys');

        await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
        await page.getByRole('heading', { name: 'Create a webhook' }).waitFor();
        await check('webhooks');

        await page.getByRole('link', { name: receiver.url('/hooks/storefront-sync/with-a-rather-long-path-for-the-receiver') }).click();
        await page.getByRole('heading', { name: 'Delivery history' }).waitFor();
        await page.locator('#deliveries tbody tr').first().getByRole('button', { name: 'View' }).click();
        await page.locator('#delivery-detail pre').waitFor();
        await check('webhook');

        await page.getByRole('link', { name: 'Events' }).click();
        await page.getByRole('heading', { name: 'Events' }).waitFor();
        await page.locator('#events details summary').first().click();
        await page.locator('#events details[open] pre').waitFor();
        await check('events');

        await page.getByRole('link', { name: 'Buyer emails' }).click();
        await page.getByRole('heading', { name: 'Buyer emails' }).waitFor();
        await page.locator('#n-list tbody tr').first().waitFor();
        await page.locator('#n-outbox').getByRole('button', { name: 'Show' }).first().click();
        await page.locator('#n-outbox pre').waitFor();
        await check('emails');

        await page.getByRole('link', { name: 'Widget' }).click();
        await page.getByRole('heading', { name: 'Embed snippet' }).waitFor();
        await page.getByText('https://a-second-storefront-with-a-long-name.example:8443').waitFor();
        await check('widget');

        await page.getByRole('link', { name: 'Account' }).click();
        await page.getByRole('heading', { name: 'Change your password' }).waitFor();
        await check('account');

        // A confirmation dialog fits too.
        await page.getByRole('link', { name: 'API Keys' }).click();
        await page.getByRole('button', { name: 'Revoke' }).first().click();
        await page.getByRole('dialog').waitFor();
        await check('dialog');
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
