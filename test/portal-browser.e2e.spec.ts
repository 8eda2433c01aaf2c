// The portal in Chromium (Debian's /usr/bin/chromium through playwright-core) against the real
// app: sign in; create a read-only key and use it (a write → 403), revoke it (→ 401); a webhook
// pointed at a local receiver that fails then recovers — its failed deliveries filtered, one's
// payload shown, all replayed and seen arriving; the event log filtered; a change without the
// CSRF token refused; sign out. A screenshot of each section goes to test/artifacts/.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';

import { CommerceClient, InsufficientScopeError, UnauthorizedError } from '@app/client';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { until } from './support/http';
import { createPortalUser, PASSWORD } from './support/portal';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV as WEBHOOK_ENV } from './support/webhooks';

const WAIT = 15_000;
const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };

describe('the portal in chromium (e2e)', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let admin: CommerceClient;
  const receiver = new WebhookReceiver();
  let receiverFails = true;
  const problems: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    receiver.on('/hooks', () => (receiverFails ? { status: 503, body: 'down for maintenance' } : { status: 200, body: 'ok' }));
    app = await startApp({ env: WEBHOOK_ENV });
    const { apiKey } = await createWorkspace(app.dataDir, 'shop');
    admin = new CommerceClient({ apiKey, baseUrl: app.url, maxRetries: 0 });
    await createPortalUser(app.dataDir, 'shop', 'owner@shop.example');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    context.setDefaultTimeout(WAIT);
    page = await context.newPage();
    // Anything the CSP blocks, any script error: the page must have none (refused requests the
    // tests make on purpose — 401, 403 — are logged as failed loads, and are not problems).
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    if (app) removeDir(app.dataDir);
    await receiver.stop();
  });

  it('signs in with a password', async () => {
    await page.goto(`${app.url}/portal`);
    await page.getByLabel('Workspace').fill('shop');
    await page.getByLabel('Email').fill('owner@shop.example');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'SIGN_IN_REFUSED' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    expect(await page.locator('header .who').textContent()).toBe('owner@shop.example');
    // The session cookie is out of the page's reach.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');
  });

  it('creates a read-only key (used against the API: a write → 403), then revokes it (→ 401)', async () => {
    await page.getByLabel('Descriptive name').fill('Read-only sync');
    await page.getByLabel('read:requests').check();
    await page.getByLabel('read:inventory').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk_/);
    await page.getByRole('cell', { name: 'Read-only sync' }).waitFor();
    await page.screenshot({ path: artifactPath('portal-api-keys.png'), fullPage: true });

    const reader = new CommerceClient({ apiKey: secret, baseUrl: app.url, maxRetries: 0 });
    expect((await reader.buyerRequests.list()).data).toEqual([]);
    await expect(reader.buyerRequests.create({ ...charizard, maxPrice: 100 })).rejects.toBeInstanceOf(InsufficientScopeError);

    const row = page.locator('tr', { has: page.getByRole('cell', { name: 'Read-only sync' }) });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('revoked').waitFor();
    await expect(reader.buyerRequests.list()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a webhook whose receiver fails then recovers: its failed deliveries filtered, shown, replayed and delivered', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill(receiver.url('/hooks'));
    await page.getByLabel('Description').fill('Storefront sync');
    await page.getByLabel('buyer_request.created').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('link', { name: receiver.url('/hooks') }).waitFor();
    await page.screenshot({ path: artifactPath('portal-webhooks.png'), fullPage: true });

    // Three events the receiver refuses until the retries run out.
    const created = [];
    for (const maxPrice of [100, 200, 300]) created.push(await admin.buyerRequests.create({ ...charizard, maxPrice }));
    const hooks = await admin.webhooks.list();
    const hookId = hooks.data[0].id;
    await until('three failed deliveries', async () => {
      const failed = await admin.webhooks.listDeliveries(hookId, { status: 'failed' });
      return failed.data.length === 3 ? failed : undefined;
    }, 30_000);
    const refusedSoFar = receiver.at('/hooks').length;
    expect(refusedSoFar).toBeGreaterThanOrEqual(3);
    receiverFails = false;

    await page.getByRole('link', { name: receiver.url('/hooks') }).click();
    await page.getByRole('heading', { name: 'Delivery history' }).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.getByLabel('Event type', { exact: true }).selectOption('buyer_request.created');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('button', { name: 'Replay all 3 shown' }).waitFor();
    expect(await page.locator('#deliveries tr[data-status="failed"]').count()).toBe(3);
    const codes = await page.locator('#deliveries tbody tr td:nth-child(4)').first().textContent();
    expect(codes).toMatch(/^503( → 503)+$/);
    await page.locator('#deliveries tbody tr').first().getByRole('button', { name: 'View' }).click();
    const payload = JSON.parse((await page.locator('#delivery-detail pre').textContent()) ?? '{}') as { type: string; data: { buyer_request_id: string } };
    expect(payload.type).toBe('buyer_request.created');
    expect(created.map((r) => r.id)).toContain(payload.data.buyer_request_id);
    await page.screenshot({ path: artifactPath('portal-webhook-deliveries.png'), fullPage: true });

    await page.getByRole('button', { name: 'Replay all 3 shown' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replay' }).click();
    await page.getByText('Replay scheduled for 3 events').waitFor();
    const arrived = await receiver.waitFor('/hooks', refusedSoFar + 3, 20_000);
    const replayed = new Set(arrived.slice(refusedSoFar).map((r) => (JSON.parse(r.body) as { data: { buyer_request_id: string } }).data.buyer_request_id));
    expect([...replayed].sort()).toEqual(created.map((r) => r.id).sort());
    await until('the replays recorded as delivered', async () => {
      const ok = await admin.webhooks.listDeliveries(hookId, { status: 'succeeded' });
      return ok.data.length === 3 ? ok : undefined;
    });
    await page.getByLabel('Status', { exact: true }).selectOption('succeeded');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('button', { name: 'Replay all 3 shown' }).waitFor();
    expect(await page.locator('#deliveries tr[data-status="succeeded"]').count()).toBe(3);
    expect(await page.locator('#deliveries tbody tr td:nth-child(4)').first().textContent()).toMatch(/200$/);
  });

  it('shows the event log, filtered, each event as delivered', async () => {
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.getByLabel('Event type', { exact: true }).selectOption('buyer_request.created');
    await page.getByRole('button', { name: 'Filter' }).click();
    await until('three events listed', async () => ((await page.locator('#events details').count()) === 3 ? true : undefined));
    await page.locator('#events details summary').first().click();
    const envelope = JSON.parse((await page.locator('#events details[open] pre').textContent()) ?? '{}') as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(['created_at', 'data', 'id', 'type', 'workspace_id']);
    await page.screenshot({ path: artifactPath('portal-events.png'), fullPage: true });
  });

  it('refuses a change without the CSRF token, even from the page itself', async () => {
    const answer = await page.evaluate(async () => {
      const res = await fetch('/api/v1/api-keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sneaky' }) });
      return { status: res.status, body: (await res.json()) as { code: string } };
    });
    expect(answer).toEqual({ status: 403, body: expect.objectContaining({ code: 'CSRF_TOKEN_INVALID' }) });
    expect((await admin.apiKeys.list()).data.map((k) => k.name)).not.toContain('sneaky');
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the portal' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/api/v1/api-keys')).status);
    expect(status).toBe(401);
    expect(problems).toEqual([]);
  });
});
