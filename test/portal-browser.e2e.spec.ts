// The portal in Chromium (Debian's /usr/bin/chromium through playwright-core) against the real
// app on a random port: the sign-in link the real CLI printed, opened exactly as printed; a
// password sign-in refused in words (the code in small print only); a read-only key created, copied
// and used (a write → 403), then revoked (→ 401); a webhook (its secret copied) pointed at a local
// receiver that fails then recovers — its failed deliveries filtered, one's payload shown, all
// replayed and the panel following them to "delivered" by itself; its URL changed, and the
// heading and the replay naming the new one; the event log filtered; the widget's allowed origins
// and snippet; a password changed on the Account page; a change without the CSRF token refused;
// sign out. Screenshots go to test/artifacts/.
import { type Browser, type BrowserContext, type Page } from 'playwright-core';

import { CommerceClient, InsufficientScopeError, UnauthorizedError } from '@app/client';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { artifactPath, launchChromium } from './support/browser';
import { http, until } from './support/http';
import { createPortalUser, openSignInLink, PASSWORD } from './support/portal';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV as WEBHOOK_ENV } from './support/webhooks';

const WAIT = 20_000;
const EMAIL = 'owner@shop.example';
const NEW_PASSWORD = 'a new passphrase, set on the Account page';
const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };

describe('the portal in chromium (e2e)', () => {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let admin: CommerceClient;
  let apiKey: string;
  let signInLink: string;
  const receiver = new WebhookReceiver();
  let receiverFails = true;
  const problems: string[] = [];
  const clipboard = () => page.evaluate('navigator.clipboard.readText()') as Promise<string>;

  beforeAll(async () => {
    await receiver.start();
    receiver.on('/hooks', () => (receiverFails ? { status: 503, body: 'down for maintenance' } : { status: 200, body: 'ok' }));
    receiver.on('/hooks-v2', () => ({ status: 200, body: 'ok' }));
    app = await startApp({ env: WEBHOOK_ENV });
    ({ apiKey } = await createWorkspace(app.dataDir, 'shop'));
    admin = new CommerceClient({ apiKey, baseUrl: app.url, maxRetries: 0 });
    // The real CLI, run against the running app's DATA_DIR: the link it prints, taken verbatim.
    ({ signInLink } = await createPortalUser(app.dataDir, 'shop', EMAIL));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    context.setDefaultTimeout(WAIT);
    page = await context.newPage();
    // Anything the CSP blocks, any script error: the page must have none (refused requests the
    // tests make on purpose — 401, 403 — are logged as failed loads, and are not problems).
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
    await receiver.stop();
  });

  it('opens the sign-in link the CLI printed, exactly as printed, and lands signed in', async () => {
    // The server's own address (a random port), with the slash before the fragment.
    expect(signInLink.startsWith(`${app.url}/portal/#link=psl_`)).toBe(true);
    await openSignInLink(page, signInLink);
    expect(await page.locator('header .who').textContent()).toBe(EMAIL);
    // The token is gone from the address bar (and the history).
    expect(page.url()).toBe(`${app.url}/portal/#/keys`);
    await page.screenshot({ path: artifactPath('portal-signed-in-by-link.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the portal' }).waitFor();

    // A link works once: opened again (pasted into this open portal tab), a sentence saying why
    // and what to do, no code.
    await page.goto(signInLink);
    const notice = page.getByRole('status').filter({ hasText: 'That sign-in link did not work' });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/used already, or it is more than 30 minutes old/);
    expect(await page.locator('#app').textContent()).not.toContain('SIGN_IN_REFUSED');
  });

  it('signs in with a password; a refusal is a sentence, its code in small print only', async () => {
    await page.getByLabel('Workspace').fill('shop');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'That workspace, email and password do not match' }).waitFor();
    expect(await alert.textContent()).not.toMatch(/^SIGN_IN_REFUSED|SIGN_IN_REFUSED:/);
    expect(await alert.locator('small.code').textContent()).toBe('SIGN_IN_REFUSED');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    expect(await page.locator('header .who').textContent()).toBe(EMAIL);
    // The session cookie is out of the page's reach.
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('creates a read-only key, copies its secret (used against the API: a write → 403), then revokes it (→ 401)', async () => {
    await page.getByLabel('Descriptive name').fill('Read-only sync');
    await page.getByLabel('read:requests').check();
    await page.getByLabel('read:inventory').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-secret').textContent()) ?? '';
    expect(secret).toMatch(/^sk_/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.locator('#toast').getByText('Secret copied').last().waitFor();
    expect(await clipboard()).toBe(secret);
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

  let hookId: string;
  let firstSecret: string;
  let refusedSoFar: number;
  let created: Array<{ id: string }>;

  it('creates a webhook and copies its signing secret, shown once', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill(receiver.url('/hooks'));
    await page.getByLabel('Description').fill('Storefront sync');
    await page.getByLabel('buyer_request.created').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('link', { name: receiver.url('/hooks') }).waitFor();
    const secret = (await page.locator('#webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    firstSecret = secret;
    await page.getByRole('region', { name: 'Signing secret' }).getByRole('button', { name: 'Copy secret' }).click();
    await page.locator('#toast').getByText('Secret copied').last().waitFor();
    expect(await clipboard()).toBe(secret);
    await page.screenshot({ path: artifactPath('portal-webhooks.png'), fullPage: true });
    hookId = (await admin.webhooks.list()).data[0].id;
  });

  it('a receiver that fails then recovers: its failed deliveries filtered, shown, replayed — the panel follows them to "delivered" by itself', async () => {
    // Three events the receiver refuses until the retries run out.
    created = [];
    for (const maxPrice of [100, 200, 300]) created.push(await admin.buyerRequests.create({ ...charizard, maxPrice }));
    await until('three failed deliveries', async () => {
      const failed = await admin.webhooks.listDeliveries(hookId, { status: 'failed' });
      return failed.data.length === 3 ? failed : undefined;
    }, 30_000);
    refusedSoFar = receiver.at('/hooks').length;
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
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain(`Replay 3 events to ${receiver.url('/hooks')}?`);
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await page.getByText('Replay scheduled for 3 events').waitFor();
    const arrived = await receiver.waitFor('/hooks', refusedSoFar + 3, 20_000);
    const replayed = new Set(arrived.slice(refusedSoFar).map((r) => (JSON.parse(r.body) as { data: { buyer_request_id: string } }).data.buyer_request_id));
    expect([...replayed].sort()).toEqual(created.map((r) => r.id).sort());
    // No click: the panel refreshes until every replayed delivery has its answer. They succeeded,
    // so the "failed" filter now shows none.
    await page.locator('#replay-progress').getByText('Replay finished: 3 of 3 delivered.').waitFor({ timeout: 30_000 });
    await page.locator('#deliveries').getByText('No deliveries match.').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('succeeded');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('button', { name: 'Replay all 3 shown' }).waitFor();
    expect(await page.locator('#deliveries tr[data-status="succeeded"]').count()).toBe(3);
    expect(await page.locator('#deliveries tbody tr td:nth-child(4)').first().textContent()).toMatch(/200$/);
  });

  it('after a new URL is saved, the heading, the replay confirmation and the replay itself name the new one', async () => {
    const oldUrl = receiver.url('/hooks');
    const newUrl = receiver.url('/hooks-v2');
    await page.getByLabel('URL').fill(newUrl);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Webhook saved').waitFor();
    await page.getByRole('heading', { name: `Webhook ${newUrl}`, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Replay all 3 shown' }).click();
    const text = (await page.getByRole('dialog').textContent()) ?? '';
    expect(text).toContain(`to ${newUrl}?`);
    expect(text).not.toContain(`${oldUrl}?`);
    await page.getByRole('dialog').getByRole('button', { name: 'Replay' }).click();
    await page.locator('#replay-progress').getByText(`Replaying 3 events to ${newUrl}`).or(page.locator('#replay-progress').getByText('Replay finished: 3 of 3 delivered.')).waitFor();
    await receiver.waitFor('/hooks-v2', 3, 20_000);
    await page.locator('#replay-progress').getByText('Replay finished: 3 of 3 delivered.').waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: '← All webhooks' }).click();
    await page.getByRole('link', { name: newUrl }).waitFor();
  });

  it('rotates the signing secret: the new one shown once, copied, and signing the deliveries', async () => {
    const url = receiver.url('/hooks-v2');
    await page.getByRole('link', { name: url }).click();
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    expect(await page.getByRole('dialog').textContent()).toContain(url);
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('region', { name: 'Signing secret' }).waitFor();
    const secret = (await page.locator('#webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(firstSecret);
    await page.getByRole('region', { name: 'Signing secret' }).getByRole('button', { name: 'Copy secret' }).click();
    await page.locator('#toast').getByText('Secret copied').last().waitFor();
    expect(await clipboard()).toBe(secret);
    const before = receiver.at('/hooks-v2').length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText(/^Test delivered: 200/).waitFor();
    const [test] = (await receiver.waitFor('/hooks-v2', before + 1)).slice(before);
    expect(await admin.webhooks.verifySignature(test.body, String(test.headers['x-service-signature']), secret)).toBe(true);
  });

  it('says what went wrong in words: no answer, a server fault, a refused field', async () => {
    await page.route('**/api/v1/webhooks?limit=100', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.filter({ hasText: 'No answer from the server: check that it is running' }).waitFor();
    await page.unroute('**/api/v1/webhooks?limit=100');
    await page.route('**/api/v1/webhooks?limit=100', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'INTERNAL', message: 'Internal server error' }) }));
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await alert.filter({ hasText: 'Something went wrong on the server' }).waitFor();
    expect(await alert.locator('small.code').textContent()).toBe('INTERNAL');
    await page.unroute('**/api/v1/webhooks?limit=100');
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Create a webhook' }).waitFor();
    // A field the server refuses, named by its label; the code only in small print.
    await page.getByLabel('URL').fill('https://hooks.example/in');
    await page.getByLabel('buyer_request.created').check();
    // Longer than the server takes (the form's own limit lifted, as an older page or another client might).
    await page.evaluate(`document.getElementById('wh-description').removeAttribute('maxlength')`);
    await page.getByLabel('Description').fill('x'.repeat(600));
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const refused = alert.filter({ hasText: 'The description takes at most 500 characters.' });
    await refused.waitFor();
    expect(await refused.textContent()).not.toContain('Invalid body field');
    expect(await refused.locator('small.code').textContent()).toBe('VALIDATION_FAILED');
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

  it('manages the widget: allowed origins added and removed, a bad one refused in words, the snippet with its theme copied', async () => {
    await page.getByRole('link', { name: 'Widget' }).click();
    await page.getByRole('heading', { name: 'Allowed origins' }).waitFor();
    await page.getByText('No origins listed: a page on any site may show your widget.').waitFor();
    const add = async (origin: string) => {
      await page.getByLabel('Add an origin').fill(origin);
      await page.getByRole('button', { name: 'Add origin' }).click();
    };
    await add('https://shop.example');
    await page.getByText('Added https://shop.example').waitFor();
    await add('http://localhost:8080');
    await page.getByRole('list', { name: 'Allowed origins' }).getByText('http://localhost:8080').waitFor();
    await add('https://shop.example/cards');
    const refused = page.getByRole('alert');
    await refused.filter({ hasText: 'An origin is a scheme' }).waitFor();
    expect(await refused.locator('small.code').textContent()).toBe('VALIDATION_FAILED');
    await page.getByRole('button', { name: 'Remove http://localhost:8080' }).click();
    await page.getByText('Removed http://localhost:8080').waitFor();
    const saved = await http<{ allowedOrigins: string[] }>(app.url, 'GET', '/api/v1/widget/settings', { key: apiKey });
    expect(saved.body.allowedOrigins).toEqual(['https://shop.example']);

    // Changed elsewhere meanwhile (the API, another tab): the page does not overwrite it, it says so and shows it.
    const elsewhere = await http(app.url, 'PUT', '/api/v1/widget/settings', { key: apiKey, body: { allowedOrigins: ['https://shop.example', 'https://other-tab.example'] } });
    expect(elsewhere.status).toBe(200);
    await add('https://third.example');
    await page.getByRole('alert').filter({ hasText: 'changed somewhere else meanwhile' }).waitFor();
    await page.getByRole('list', { name: 'Allowed origins' }).getByText('https://other-tab.example').waitFor();
    await add('https://third.example');
    await page.getByText('Added https://third.example').waitFor();
    expect((await http<{ allowedOrigins: string[] }>(app.url, 'GET', '/api/v1/widget/settings', { key: apiKey })).body.allowedOrigins.sort()).toEqual(
      ['https://other-tab.example', 'https://shop.example', 'https://third.example'],
    );

    await page.getByLabel('Theme').selectOption('dark');
    const snippet = `<script src="${app.url}/widget.js" data-seller="shop" data-theme="dark" async></script>`;
    expect(await page.locator('#w-snippet').textContent()).toBe(snippet);
    await page.getByRole('button', { name: 'Copy snippet' }).click();
    await page.getByText('Snippet copied').waitFor();
    expect(await clipboard()).toBe(snippet);
    await page.screenshot({ path: artifactPath('portal-widget.png'), fullPage: true });
  });

  it('changes the password on the Account page: the wrong current one refused in words; this session stays, the others end', async () => {
    const other = await http(app.url, 'POST', '/portal/api/session', { body: { workspace: 'shop', email: EMAIL, password: PASSWORD } });
    const otherCookie = (other.headers.get('set-cookie') ?? '').split(';')[0];
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password (at least 12 characters)').fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD} typo`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two new passwords are not the same' }).waitFor();
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your current password is not right' }).waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed. 1 other session signed out.' }).waitFor();
    await page.screenshot({ path: artifactPath('portal-account.png'), fullPage: true });
    expect((await http(app.url, 'GET', '/portal/api/session', { headers: { cookie: otherCookie } })).status).toBe(401);
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor();
  });

  it('refuses a change without the CSRF token, even from the page itself', async () => {
    const answer = await page.evaluate(async () => {
      const res = await fetch('/api/v1/api-keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sneaky' }) });
      return { status: res.status, body: (await res.json()) as { code: string } };
    });
    expect(answer).toEqual({ status: 403, body: expect.objectContaining({ code: 'CSRF_TOKEN_INVALID' }) });
    expect((await admin.apiKeys.list()).data.map((k) => k.name)).not.toContain('sneaky');
  });

  it('signs out; the new password signs in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the portal' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/api/v1/api-keys')).status);
    expect(status).toBe(401);
    await page.getByLabel('Workspace').fill('shop');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    expect(problems).toEqual([]);
  });
});
