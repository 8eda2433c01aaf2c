// The buyer's email when a card they want is in stock (issue 34 items 3–5), end to end against the
// compiled app and a real SMTP server (smtp-server on 127.0.0.1): a want list through the widget's
// public endpoint, stock through an intake push, and the email as the server received it — one
// email with the card, set, condition, price, shop link and RFC 8058 unsubscribe headers; a second
// match within the window gathered into the next email; nothing sent again after a restart and a
// rebuild of every read model; the unsubscribe link working without signing in; an erased buyer
// getting nothing; an SMTP outage (451 answers, then the server down) retried until delivered.
// Without SMTP_URL (the outbox): the settings, the preview, a match gained by a PATCH, the .eml
// files, their isolation per workspace and their deletion when the buyer is erased.
// The window is BUYER_EMAIL_WINDOW (30 s here, an hour by default): nothing sleeps an hour.
// Every wait polls with a generous bound; nothing asserts speed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { type Added, type Pushed, SESSIONS, type Session } from './support/intake';
import { eventually, SmtpSink } from './support/smtp-sink';

const SELLER = 'acme';
const ALICE = 'alice.collector@example.org';
const BOB = 'bob.binder@example.net';
const CAROL = 'carol.cards@example.com';
const WINDOW_MS = 30_000;
const PAGE_ORIGIN = 'http://127.0.0.1:1';

interface WantListAnswer {
  buyerId: string;
  requests: Array<{ id: string; matchCount: number }>;
}
interface Notice {
  id: string;
  buyerId: string;
  status: string;
  matches: Array<{ matchId: string; buyerRequestId: string; inventoryItemId: string }>;
  attempts: number;
  sendAt: string | null;
  sentAt: string | null;
  transport: string | null;
  reason: string | null;
  lastError: { code: string; message: string; responseCode: number | null } | null;
}

describe('buyer emails against a real SMTP server (e2e)', () => {
  const smtp = new SmtpSink();
  let app: RunningApp;
  let key: string;
  let env: Record<string, string>;
  const api = <T>(method: string, path: string, body?: unknown) => http<T>(app.url, method, path, { key, body });

  async function want(email: string, cardName: string, setName: string, maxPrice: number): Promise<WantListAnswer> {
    const res = await http<WantListAnswer>(app.url, 'POST', `/api/v1/public/sellers/${SELLER}/want-list`, {
      body: { items: [{ cardName, setName, condition: 'Near Mint', maxPrice }], email },
      headers: { origin: PAGE_ORIGIN },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** Stock arrives the way a seller's shop brings it: an intake session, rows, a push. */
  async function push(rows: Array<Record<string, unknown>>): Promise<void> {
    const session = await api<Session>('POST', SESSIONS, { name: 'Delivery' });
    expect(session.status).toBe(201);
    const added = await api<Added>('POST', `${SESSIONS}/${session.body.id}/items`, rows);
    expect(added.status).toBe(200);
    const pushed = await api<Pushed>('POST', `${SESSIONS}/${session.body.id}/push`);
    expect(pushed.status).toBe(200);
  }

  async function notices(buyerId: string): Promise<Notice[]> {
    const res = await api<{ data: Notice[] }>('GET', `/api/v1/notifications?buyerId=${buyerId}&limit=100`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  beforeAll(async () => {
    await smtp.start();
    env = {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'shop-mail@acme.example',
      SMTP_TIMEOUT_MS: '10000',
      BUYER_EMAIL_WINDOW: `${WINDOW_MS}ms`,
      BUYER_EMAIL_RETRY: '300ms',
      BUYER_EMAIL_MAX_ATTEMPTS: '30',
      TIMER_POLL_MS: '100',
      LOG_LEVEL: 'info',
    };
    app = await startApp({ env });
    key = (await createWorkspace(app.dataDir, SELLER)).apiKey;
    const settings = await api('PUT', '/api/v1/widget/settings/notifications', {
      enabled: true,
      shopName: 'Acme Cards',
      replyTo: 'hello@acme.example',
      shopUrl: 'https://shop.acme.example',
    });
    expect(settings.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await smtp.stop();
    if (app) removeDir(app.dataDir);
  }, 30_000);

  let alice: WantListAnswer;
  let first: Notice;

  it('emails the buyer once when the card they want arrives by an intake push, with the card, price, shop link and one-click unsubscribe', async () => {
    alice = await want(ALICE, 'Charizard', 'Base Set', 450);
    expect(alice.requests[0].matchCount).toBe(0);
    await push([{ card: 'Charizard', set: 'Base Set', condition: 'NM', price: 420, sku: 'c-1' }]);

    const [email] = await eventually('the first email', () => smtp.to(ALICE).length > 0 && smtp.to(ALICE));
    [first] = await eventually('the notice recorded as sent', async () => {
      const list = await notices(alice.buyerId);
      return list.length === 1 && list[0].status === 'sent' && list;
    });
    expect(smtp.to(ALICE)).toHaveLength(1);
    expect(email.headers.subject).toBe('Charizard is in stock at Acme Cards');
    expect(email.headers.from).toBe('Acme Cards <shop-mail@acme.example>');
    expect(email.headers['reply-to']).toBe('hello@acme.example');
    expect(email.headers.to).toBe(ALICE);
    expect(email.headers['message-id']).toBe(`<${first.id}@acme.example>`);
    // The running server's own address (no PUBLIC_BASE_URL here), not a guessed port.
    expect(email.headers['list-unsubscribe']).toMatch(/^<http:\/\/[\d.]+:\d+\/email\/unsubscribe\/u1\.ws_\w+\.buyer_[a-z2-7]{26}\.[\w-]{22}>$/);
    expect(email.headers['list-unsubscribe']).toContain(`<${app.url}/email/unsubscribe/`);
    expect(email.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(email.body).toContain('Charizard — Base, Near Mint: $420.00');
    expect(email.body).toContain('You asked for: Charizard (Base, Near Mint, up to $450.00)');
    expect(email.body).toContain('https://shop.acme.example');
    expect(email.body).toContain('<a href="https://shop.acme.example"');
    // The seller sees it by pseudonymous buyer id, never the address.
    expect(first).toMatchObject({ buyerId: alice.buyerId, status: 'sent', attempts: 1, transport: 'smtp', matches: [expect.objectContaining({ buyerRequestId: alice.requests[0].id })] });
    expect(JSON.stringify(await notices(alice.buyerId))).not.toContain('alice');
  }, 120_000);

  it('gathers a second and third match within the window into the next email, sent once the window has passed', async () => {
    await push([{ card: 'Charizard', set: 'Base Set', condition: 'NM', price: 410, sku: 'c-2' }]);
    const pending = await eventually('the second match queued', async () => (await notices(alice.buyerId)).find((n) => n.status === 'pending'));
    await push([{ card: 'Charizard', set: 'Base Set', condition: 'NM', price: 430, sku: 'c-3' }]);
    const gathered = await eventually('the third match gathered into the same notice', async () =>
      (await notices(alice.buyerId)).find((n) => n.id === pending.id && n.status === 'pending' && n.matches.length === 2),
    );
    // Due no sooner than the window after the first email; not sent meanwhile.
    expect(Date.parse(gathered.sendAt!)).toBeGreaterThanOrEqual(Date.parse(first.sentAt!) + WINDOW_MS);
    expect(smtp.to(ALICE)).toHaveLength(1);

    const second = await eventually('the gathered email', () => smtp.to(ALICE).length >= 2 && smtp.to(ALICE)[1], WINDOW_MS + 60_000);
    expect(second.headers.subject).toBe('2 cards from your want list are in stock at Acme Cards');
    expect(second.body).toContain('Charizard — Base, Near Mint: $410.00');
    expect(second.body).toContain('Charizard — Base, Near Mint: $430.00');
    await eventually('the gathered notice recorded as sent', async () => (await notices(alice.buyerId)).find((n) => n.id === pending.id && n.status === 'sent'));
    expect(smtp.to(ALICE)).toHaveLength(2);
  }, 180_000);

  it('sends nothing again after a restart on the same DATA_DIR and a rebuild of every read model', async () => {
    const before = smtp.messages.length;
    const recorded = await notices(alice.buyerId);
    await app.stop();
    app = await startApp({ dataDir: app.dataDir, env });
    const rebuilt = await cli(app.dataDir, ['projections', 'rebuild', '--all'], env);
    expect(rebuilt.code).toBe(0);
    // The notices read back the same (rebuilt from the log), and the app has caught up with the log.
    await eventually('the notices rebuilt', async () => JSON.stringify(await notices(alice.buyerId)) === JSON.stringify(recorded) || undefined);
    await new Promise((r) => setTimeout(r, 3000));
    expect(smtp.messages.length).toBe(before);
    expect(await notices(alice.buyerId)).toEqual(recorded);
  }, 120_000);

  it("unsubscribes by the email's one-click link without signing in, and sends nothing later", async () => {
    const link = /^<(.+)>$/.exec(smtp.to(ALICE)[0].headers['list-unsubscribe'])![1];
    const path = new URL(link).pathname;
    const page = await http(app.url, 'GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<form method="post">');
    // A forged or altered token is refused.
    expect((await http(app.url, 'POST', `${path.slice(0, -3)}AAA`, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
    expect((await http(app.url, 'GET', '/email/unsubscribe/u1.nope')).status).toBe(404);
    // What a mail client sends for List-Unsubscribe-Post (RFC 8058).
    const done = await http(app.url, 'POST', path, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(done.text).toContain('You are unsubscribed');
    expect((await http(app.url, 'POST', path, { rawBody: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);

    const before = smtp.to(ALICE).length;
    await push([{ card: 'Charizard', set: 'Base Set', condition: 'NM', price: 400, sku: 'c-4' }]);
    await eventually('the new match suppressed', async () => (await notices(alice.buyerId)).find((n) => n.status === 'suppressed' && n.reason === 'unsubscribed'));
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.to(ALICE)).toHaveLength(before);
  }, 120_000);

  it('sends an erased buyer nothing', async () => {
    const bob = await want(BOB, 'Blastoise', 'Base Set', 400);
    const erased = await api('DELETE', `/api/v1/buyers/${bob.buyerId}/personal-data`);
    expect(erased.status).toBe(200);
    await push([{ card: 'Blastoise', set: 'Base Set', condition: 'NM', price: 300, sku: 'b-1' }]);
    const [notice] = await eventually('the match suppressed', async () => {
      const list = await notices(bob.buyerId);
      return list.length > 0 && list[0].status === 'suppressed' && list;
    });
    expect(notice.reason).toBe('erased');
    expect(smtp.to(BOB)).toHaveLength(0);
  }, 120_000);

  it('retries through an SMTP outage (451 answers, then the server down) and then delivers, showing the failures to the seller', async () => {
    smtp.mode = 'tempfail';
    const carol = await want(CAROL, 'Venusaur', 'Base Set', 500);
    await push([{ card: 'Venusaur', set: 'Base Set', condition: 'NM', price: 250, sku: 'v-1' }]);
    const refused = await eventually('a 451 recorded, to be retried', async () =>
      (await notices(carol.buyerId)).find((n) => n.status === 'retrying' && n.lastError?.responseCode === 451),
    );
    expect(refused.lastError).toEqual({ code: 'SMTP_TEMPORARY', message: 'The mail server answered 451: try again later', responseCode: 451 });
    expect(smtp.refused).toBeGreaterThan(0);

    await smtp.stop();
    await eventually('the server down recorded, to be retried', async () =>
      (await notices(carol.buyerId)).find((n) => n.status === 'retrying' && n.lastError?.code === 'SMTP_UNREACHABLE'),
    );
    smtp.mode = 'ok';
    await smtp.start();
    const [email] = await eventually('the email delivered after the outage', () => smtp.to(CAROL).length > 0 && smtp.to(CAROL), 90_000);
    expect(email.headers.subject).toBe('Venusaur is in stock at Acme Cards');
    const sent = await eventually('the notice sent', async () => (await notices(carol.buyerId)).find((n) => n.status === 'sent'));
    expect(sent.attempts).toBeGreaterThanOrEqual(3);
    expect(smtp.to(CAROL)).toHaveLength(1);
  }, 180_000);

  it('never writes an address, nor an unsubscribe token, to the log output (every request logged)', () => {
    expect(app.output()).toContain('/email/unsubscribe/[redacted]');
    const token = /\/email\/unsubscribe\/([^>]+)>/.exec(smtp.to(ALICE)[0].headers['list-unsubscribe'])![1];
    expect(app.output()).not.toContain(token);
    for (const address of [ALICE, BOB, CAROL]) expect(app.output()).not.toContain(address);
  });
});

describe('buyer emails with no SMTP_URL: the outbox (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let workspaceId: string;
  const api = <T>(method: string, path: string, body?: unknown) => http<T>(app.url, method, path, { key, body });
  const DORA = 'dora.decks@example.org';

  beforeAll(async () => {
    app = await startApp({ env: { TIMER_POLL_MS: '100', LOG_LEVEL: 'info' } });
    const ws = await createWorkspace(app.dataDir, 'outbox-shop');
    key = ws.apiKey;
    workspaceId = ws.id;
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    if (app) removeDir(app.dataDir);
  }, 30_000);

  it('validates the settings: https shop URLs (http only on localhost), an address to reply to', async () => {
    for (const shopUrl of ['http://shop.example', 'javascript:alert(1)', 'https://user:pw@shop.example', 'ftp://shop.example']) {
      const res = await api<{ code: string }>('PUT', '/api/v1/widget/settings/notifications', { enabled: true, shopName: 'Dora', replyTo: null, shopUrl });
      expect([shopUrl, res.status, res.body.code]).toEqual([shopUrl, 400, 'VALIDATION_FAILED']);
    }
    expect((await api('PUT', '/api/v1/widget/settings/notifications', { enabled: true, shopName: 'Dora', replyTo: 'not an address', shopUrl: null })).status).toBe(400);
    const ok = await api<Record<string, unknown>>('PUT', '/api/v1/widget/settings/notifications', { enabled: true, shopName: "Dora's Decks", replyTo: null, shopUrl: 'http://localhost:8080/shop' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ enabled: true, shopName: "Dora's Decks", shopUrl: 'http://localhost:8080/shop', updatedAt: expect.any(String) });
    expect((await api('GET', '/api/v1/widget/settings/notifications')).body).toEqual(ok.body);
  });

  it('previews the email with sample data and the settings', async () => {
    const res = await api<{ subject: string; from: string; text: string; html: string; headers: Record<string, string> }>('GET', '/api/v1/notifications/preview');
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe("2 cards from your want list are in stock at Dora's Decks");
    expect(res.body.from).toBe(`"Dora's Decks" <no-reply@localhost>`);
    expect(res.body.text).toContain('See it in the shop: http://localhost:8080/shop');
    expect(res.body.html).toContain('Dora&#39;s Decks');
    expect(res.body.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('emails a buyer whose request gains a full match by a PATCH (the stock was there, too dear)', async () => {
    const stock = await api('POST', '/api/v1/inventory', { cardName: 'Blastoise', setName: 'Base', condition: 'Near Mint', price: 150 });
    expect(stock.status).toBe(201);
    const sent = await http<WantListAnswer>(app.url, 'POST', '/api/v1/public/sellers/outbox-shop/want-list', {
      body: { items: [{ cardName: 'Blastoise', setName: 'Base', condition: 'Near Mint', maxPrice: 100 }], email: 'pat.patch@example.org' },
      headers: { origin: PAGE_ORIGIN },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.requests[0].matchCount).toBe(0);
    const patched = await api('PATCH', `/api/v1/buyer-requests/${sent.body.requests[0].id}`, { maxPrice: 200 });
    expect(patched.status).toBe(200);
    const [notice] = await eventually('the email after the PATCH', async () => {
      const list = (await api<{ data: Notice[] }>('GET', `/api/v1/notifications?buyerId=${sent.body.buyerId}`)).body.data;
      return list.length > 0 && list[0].status === 'sent' && list;
    });
    expect(notice).toMatchObject({ transport: 'outbox', matches: [expect.objectContaining({ buyerRequestId: sent.body.requests[0].id })] });
    expect(readFileSync(join(app.dataDir, 'outbox', workspaceId, `${notice.id}.eml`), 'utf8')).toContain('Subject: Blastoise is in stock at Dora\'s Decks');
  }, 60_000);

  it('writes the email to DATA_DIR/outbox, lists it, and deletes it when the buyer is erased: the address is then nowhere', async () => {
    const res = await http<WantListAnswer>(app.url, 'POST', '/api/v1/public/sellers/outbox-shop/want-list', {
      body: { items: [{ cardName: 'Pikachu', setName: 'Jungle', condition: 'Near Mint', maxPrice: 20 }], email: DORA },
      headers: { origin: PAGE_ORIGIN },
    });
    expect(res.status).toBe(201);
    const session = await api<Session>('POST', SESSIONS, { name: 'Delivery' });
    await api('POST', `${SESSIONS}/${session.body.id}/items`, [{ card: 'Pikachu', set: 'Jungle', condition: 'NM', price: 12 }]);
    expect((await api('POST', `${SESSIONS}/${session.body.id}/push`)).status).toBe(200);

    const [sent] = await eventually('the email sent', async () => {
      const list = (await api<{ data: Notice[] }>('GET', `/api/v1/notifications?buyerId=${res.body.buyerId}`)).body.data;
      return list.length > 0 && list[0].status === 'sent' && list;
    });
    const id = sent.id;
    const outbox = (await api<{ transport: string; data: Array<{ notificationId: string }> }>('GET', '/api/v1/notifications/outbox')).body;
    expect(outbox.transport).toBe('outbox');
    expect(outbox.data.map((m) => m.notificationId)).toContain(id);
    const file = join(app.dataDir, 'outbox', workspaceId, `${id}.eml`);
    expect(existsSync(file)).toBe(true);
    const raw = readFileSync(file, 'utf8');
    expect(raw).toContain('Subject: Pikachu is in stock at Dora\'s Decks');
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const message = await http(app.url, 'GET', `/api/v1/notifications/outbox/${id}`, { key });
    expect(message.status).toBe(200);
    expect(message.headers.get('content-type')).toBe('message/rfc822');
    // Another workspace sees none of it.
    const other = (await createWorkspace(app.dataDir, 'other-shop')).apiKey;
    expect((await http<{ data: unknown[] }>(app.url, 'GET', '/api/v1/notifications/outbox', { key: other })).body.data).toEqual([]);
    expect((await http(app.url, 'GET', `/api/v1/notifications/outbox/${id}`, { key: other })).status).toBe(404);
    expect((await http<{ data: unknown[] }>(app.url, 'GET', '/api/v1/notifications', { key: other })).body.data).toEqual([]);

    expect((await api('DELETE', `/api/v1/buyers/${res.body.buyerId}/personal-data`)).status).toBe(200);
    await eventually('the outbox file deleted', () => !existsSync(file));
    // The address in clear nowhere under DATA_DIR (the log and read models hold it sealed, with a destroyed key).
    const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
    for (const f of files(app.dataDir)) expect([f, readFileSync(f).includes(DORA)]).toEqual([f, false]);
    expect(app.output()).not.toContain(DORA);
  }, 120_000);
});
