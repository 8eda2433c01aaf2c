// The want-list widget's server side against the real compiled app (dist/) on a random port with
// its own DATA_DIR: the script (ETag with version and hash, 304, cacheable, ≤ 15 KB gzipped), card
// suggestions, the CORS preflight, a want list becoming buyer requests with `source: "widget"` and
// their match counts, the bad inputs (invalid email 400, oversized body 413, unknown seller 404),
// the honeypot (a success that creates nothing), a seller's origin allow-list (403 without CORS
// headers), the rate limits per IP and per seller (429 {code, message, details}), and the buyer's
// personal data: readable through the API, erased (crypto-shredding: the log is not rewritten),
// still erased after a projection rebuild — and the email never in the logs, the webhook payloads,
// the public events or the database files in clear. Whether the widget works on a page (the check
// it makes when it loads: an unknown seller 404, a refused origin said so, readable by any page),
// the price ceiling said as money in the shop's currency, and a sentence in the widget for every
// error code the OpenAPI document gives its routes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { CommerceClient, InsufficientScopeError, NotFoundError, type WantListReceived, type WidgetAvailability } from '@app/client';

import { WIDGET_REFUSAL_CODES } from '../libs/widget/src/web/widget.script';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http } from './support/http';
import { fetchDocument, operationsOf } from './support/openapi';
import { WebhookReceiver } from './support/webhook-receiver';
import { ENV as WEBHOOK_ENV } from './support/webhooks';

const SELLER = 'acme';
const EMAIL = 'Philomena.Brackenbury@example.org';
const NOTE = 'ring 0161 496 0732 after six';
/** Every spelling of the personal data a leak could show. */
const SECRETS = [EMAIL, EMAIL.toLowerCase(), 'Brackenbury', 'brackenbury', '496 0732'];
const WANT = { items: [{ cardName: 'charizard', setName: 'base set', condition: 'Near Mint', maxPrice: 450 }], email: EMAIL, note: NOTE };
const PAGE_ORIGIN = 'http://127.0.0.1:1';

describe('the want-list widget, server side (e2e)', () => {
  let app: RunningApp;
  let api: CommerceClient;
  let key: string;
  const receiver = new WebhookReceiver();
  const publicCall = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http<T>(app.url, method, path, { body, headers: { origin: PAGE_ORIGIN, ...headers } });

  beforeAll(async () => {
    await receiver.start();
    // Every request logged (debug), so the grep below sees all there is; the per-IP submission
    // limit lifted (its own suite below tests it).
    app = await startApp({ env: { ...WEBHOOK_ENV, LOG_LEVEL: 'debug', RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: '1000', RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND: '1000' } });
    key = (await createWorkspace(app.dataDir, SELLER)).apiKey;
    api = new CommerceClient({ apiKey: key, baseUrl: app.url, maxRetries: 0 });
    await api.webhooks.create({ url: receiver.url('/hooks'), events: ['buyer_request.created', 'buyer_request.matched', 'match.created'] });
    // Two Charizards in stock that meet the want list, one that does not (too dear).
    for (const [price, sku] of [[400, 'c1'], [420, 'c2'], [900, 'c3']] as const) {
      await api.inventory.create({ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price, sku });
    }
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await receiver.stop();
    if (app) removeDir(app.dataDir);
  }, 30_000);

  describe('GET /widget.js', () => {
    it('serves the script, cacheable, with an ETag naming its version and content, under 15 KB gzipped', async () => {
      const res = await http<string>(app.url, 'GET', '/widget.js');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('etag')).toMatch(/^"w2-[A-Za-z0-9_-]{22}"$/);
      expect(res.text).toContain('attachShadow');
      expect(gzipSync(res.text, { level: 9 }).length).toBeLessThanOrEqual(15 * 1024);
      const again = await http(app.url, 'GET', '/widget.js', { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await http(app.url, 'GET', '/widget.js', { headers: { 'if-none-match': '"w0-stale"' } })).status).toBe(200);
    });
  });

  describe('card suggestions', () => {
    it('answers catalogue names with their sets, to any page', async () => {
      const res = await publicCall<{ data: Array<{ cardName: string; sets: string[] }> }>('GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=chari`);
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ cardName: 'Charizard', sets: expect.arrayContaining([expect.any(String)]) });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      await expect(api.widget.cardSuggestions(SELLER, { q: 'pikach' })).resolves.toMatchObject({ data: expect.arrayContaining([expect.objectContaining({ cardName: 'Pikachu' })]) });
    });

    it('names an unknown seller with 404; suggests nothing for too little, and refuses too much', async () => {
      const unknown = await publicCall<ErrorBody>('GET', '/api/v1/public/sellers/nobody/card-suggestions?q=chari');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', message: 'No seller nobody' });
      for (const query of ['', '?q=', '?q=c']) {
        const none = await publicCall('GET', `/api/v1/public/sellers/${SELLER}/card-suggestions${query}`);
        expect([query, none.status, none.body]).toEqual([query, 200, { data: [] }]);
      }
      const long = await publicCall<ErrorBody>('GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=${'a'.repeat(101)}`);
      expect(long.status).toBe(400);
      expect(long.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [expect.objectContaining({ path: 'q' })] } });
    });
  });

  describe('whether the widget works on a page (its check when it loads)', () => {
    const availability = (slug: string, origin?: string) =>
      http<WidgetAvailability & ErrorBody>(app.url, 'GET', `/api/v1/public/sellers/${slug}/widget`, { headers: origin ? { origin } : {} });

    it('says a seller exists and the page may use its widget, to any page, never cached', async () => {
      const res = await availability(SELLER, 'https://Shop.Example');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ seller: SELLER, available: true, reason: null, origin: 'https://shop.example' });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await availability(SELLER)).body).toEqual({ seller: SELLER, available: true, reason: null, origin: null });
      await expect(api.widget.availability(SELLER)).resolves.toEqual({ seller: SELLER, available: true, reason: null, origin: null });
    });

    it('answers an unknown seller with a 404 the page can read', async () => {
      const res = await availability('acmee', PAGE_ORIGIN);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'No seller acmee', details: { seller: 'acmee' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      await expect(api.widget.availability('acmee')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('names a refused origin as such, readable by the refused page itself, as soon as the settings change', async () => {
      await api.widget.updateSettings({ allowedOrigins: ['https://shop.example'] });
      try {
        const refused = await availability(SELLER, 'https://elsewhere.example');
        expect(refused.status).toBe(200);
        expect(refused.body).toEqual({ seller: SELLER, available: false, reason: 'ORIGIN_NOT_ALLOWED', origin: 'https://elsewhere.example' });
        expect(refused.headers.get('access-control-allow-origin')).toBe('*');
        expect(refused.headers.get('vary')).toContain('Origin');
        expect((await availability(SELLER, 'https://shop.example')).body).toMatchObject({ available: true });
        // A request without Origin is no browser's page: the list does not apply to it (as on the other routes).
        expect((await availability(SELLER)).body).toMatchObject({ available: true });
      } finally {
        await api.widget.updateSettings({ allowedOrigins: [] });
      }
      expect((await availability(SELLER, 'https://elsewhere.example')).body).toMatchObject({ available: true });
    });
  });

  it('has a sentence in the widget for every error code its routes can answer (the OpenAPI document)', async () => {
    const document = await fetchDocument(app.url);
    const widgetRoutes = operationsOf(document).filter((o) => o.path.startsWith('/api/v1/public/sellers/'));
    expect(widgetRoutes.map((o) => o.op.operationId).sort()).toEqual(['getWidgetAvailability', 'resolveWantList', 'submitWantList', 'suggestCards']);
    const codes = new Set(
      widgetRoutes.flatMap((o) =>
        Object.entries(o.op.responses)
          .filter(([status]) => Number(status) >= 400)
          .flatMap(([, response]) => Object.keys((response as { content?: Record<string, { examples?: Record<string, unknown> }> }).content?.['application/json']?.examples ?? {})),
      ),
    );
    expect(codes.size).toBeGreaterThan(5);
    expect([...codes].filter((code) => !WIDGET_REFUSAL_CODES.includes(code))).toEqual([]);
  });

  it("says the price ceiling as money in the list's currency, on the pasted list and on the list sent", async () => {
    const resolved = await publicCall<{ lines: Array<Record<string, unknown>> }>('POST', `/api/v1/public/sellers/${SELLER}/want-list/resolve`, {
      text: 'Charizard $1,000,000,000\nBlastoise (Base) €250,000,000',
      currency: 'EUR',
    });
    expect(resolved.body.lines).toEqual([
      expect.objectContaining({ line: 1, status: 'error', error: { code: 'OTHER_CURRENCY', message: 'Prices are in EUR here, not USD' } }),
      expect.objectContaining({ line: 2, status: 'error', error: { code: 'PRICE_TOO_HIGH', message: 'Enter a price up to €100,000,000.00' } }),
    ]);
    const sent = await publicCall<ErrorBody>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, { ...WANT, items: [{ cardName: 'Charizard', maxPrice: 1_000_000_000 }] });
    expect(sent.status).toBe(400);
    expect(sent.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Invalid body field "items.0.maxPrice": Enter a price up to $100,000,000.00',
      details: { issues: [{ path: 'items.0.maxPrice', message: 'Enter a price up to $100,000,000.00' }] },
    });
  });

  it('answers the CORS preflight of a want list from any page', async () => {
    const res = await http(app.url, 'OPTIONS', `/api/v1/public/sellers/${SELLER}/want-list`, {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    // JSON, and what the TypeScript client adds; an API key never (public routes, browsers).
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toEqual(['content-type', 'idempotency-key', 'x-client-user-agent', 'x-request-id']);
    // The authenticated API stays closed to browsers.
    const closed = await http(app.url, 'OPTIONS', '/api/v1/buyer-requests', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
  });

  let received: WantListReceived;

  it('turns a want list into buyer requests (source widget) and answers their match count', async () => {
    const res = await publicCall<WantListReceived>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, WANT);
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    received = res.body;
    expect(received).toMatchObject({ buyerId: expect.stringMatching(/^buyer_[a-z2-7]{26}$/), matchCount: 2, requests: [{ id: expect.stringMatching(/^br_/), matchCount: 2 }] });

    const request = await api.buyerRequests.retrieve(received.requests[0].id);
    expect(request).toMatchObject({
      cardName: 'Charizard',
      setName: 'Base',
      condition: 'Near Mint',
      maxPrice: 450,
      source: 'widget',
      status: 'matched',
      matchCount: 2,
      buyerId: received.buyerId,
      contact: { email: EMAIL, note: NOTE },
      contactErased: false,
    });
    // The same buyer (the same email, however typed) again: the same buyer id.
    const again = await api.widget.submitWantList(SELLER, { items: [{ cardName: 'Blastoise', setName: 'Base', condition: 'LP', maxPrice: 80 }], email: ` ${EMAIL.toUpperCase()} ` });
    expect(again).toMatchObject({ buyerId: received.buyerId, matchCount: 0 });
    const mine = await api.buyerRequests.list({ buyerId: received.buyerId });
    expect(mine.data.map((r) => r.id).sort()).toEqual([received.requests[0].id, again.requests[0].id].sort());
  });

  it('refuses an invalid email with 400 naming the field', async () => {
    const res = await publicCall<ErrorBody>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, { ...WANT, email: 'philomena@' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Invalid body field "email": Enter a valid email address, like name@example.com',
      details: { issues: [{ path: 'email', message: 'Enter a valid email address, like name@example.com' }] },
    });
    const condition = await publicCall<ErrorBody>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, { ...WANT, items: [{ ...WANT.items[0], condition: 'Shiny' }] });
    expect(condition.status).toBe(400);
    expect(condition.body.details?.issues).toEqual([expect.objectContaining({ path: 'items.0.condition', message: expect.stringContaining('Near Mint (NM)') })]);
  });

  it('refuses a body over 32 KB with 413 before reading it', async () => {
    const res = await publicCall<ErrorBody>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, { ...WANT, note: 'x'.repeat(40_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limit: 32_768 } });
  });

  it('resolves a pasted want list line by line against the catalogue, with a clear error per bad line', async () => {
    const text = '4 Charizard Base NM\n\nPikachu (Jungle) LP $12\nChairzard BS\n$12\nMewtwo (Jungel) Shiny\nBlastoise €5';
    const res = await publicCall<{ lines: Array<Record<string, unknown>>; extraLines: number }>('POST', `/api/v1/public/sellers/${SELLER}/want-list/resolve`, { text });
    expect(res.status).toBe(200);
    expect(res.body.extraLines).toBe(0);
    expect(res.body.lines).toEqual([
      expect.objectContaining({ line: 1, status: 'ok', quantity: 4, cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: null, error: null }),
      expect.objectContaining({ line: 3, status: 'ok', quantity: 1, cardName: 'Pikachu', setName: 'Jungle', condition: 'Lightly Played', maxPrice: 12 }),
      // The correction matching makes: one letter off a card of the set.
      expect.objectContaining({ line: 4, status: 'ok', cardName: 'Charizard', setName: 'Base', condition: null, changes: expect.arrayContaining(['corrected "Chairzard" to "Charizard" (one letter off)']) }),
      { line: 5, text: '$12', status: 'error', error: { code: 'NO_CARD_NAME', message: 'No card name on this line' } },
      // An unknown set is kept as typed and flagged, as on the API; a word no condition reads stays in the card's name (flagged too).
      expect.objectContaining({
        line: 6,
        status: 'ok',
        cardName: 'Mewtwo Shiny',
        setName: 'Jungel',
        warnings: ['unknown card name "Mewtwo Shiny" kept as given', 'unknown set "Jungel" kept as given (did you mean "Jungle"?)'],
      }),
      expect.objectContaining({ line: 7, status: 'error', error: { code: 'OTHER_CURRENCY', message: 'Prices are in USD here, not EUR' } }),
    ]);
    // Garbage is never a 5xx.
    for (const garbage of ['', '\n\n\n', '(((((', '$$$ €€€', 'x'.repeat(5000), Array.from({ length: 40 }, (_, i) => `Card ${i}`).join('\n')]) {
      const r = await publicCall<{ lines: unknown[] }>('POST', `/api/v1/public/sellers/${SELLER}/want-list/resolve`, { text: garbage });
      expect(r.status).toBe(200);
    }
    const tooLong = await publicCall<ErrorBody>('POST', `/api/v1/public/sellers/${SELLER}/want-list/resolve`, { text: 'x'.repeat(20_000) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [expect.objectContaining({ path: 'text' })] } });
  });

  it('takes a whole list with open fields and answers each line', async () => {
    const res = await publicCall<WantListReceived>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, {
      items: [
        { cardName: 'Charizard', quantity: 4 },
        { cardName: 'Pikachu', setName: 'Jungle', condition: 'LP', maxPrice: 12 },
        { cardName: 'Mewtwo', setName: null, condition: 'PSA 9', maxPrice: null },
      ],
      email: 'list@example.org',
    });
    expect(res.status).toBe(201);
    expect(res.body.requests).toEqual([
      expect.objectContaining({ cardName: 'Charizard', setName: null, condition: null, maxPrice: null, quantity: 4, matchCount: expect.any(Number) }),
      expect.objectContaining({ cardName: 'Pikachu', setName: 'Jungle', condition: 'Lightly Played', maxPrice: 12, quantity: 1, matchCount: 0 }),
      expect.objectContaining({ cardName: 'Mewtwo', setName: null, condition: 'PSA 9', maxPrice: null, quantity: 1, matchCount: 0 }),
    ]);
    // Every Charizard in stock, whatever its set, condition or price, is a match of the open line.
    expect(res.body.requests[0].matchCount).toBeGreaterThan(0);
    const stored = await api.buyerRequests.retrieve(res.body.requests[0].id);
    expect(stored).toMatchObject({ setName: null, condition: null, maxPrice: null, source: 'widget' });
    const tooMany = await publicCall<ErrorBody>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, {
      items: Array.from({ length: 26 }, () => ({ cardName: 'Onix' })),
      email: 'list@example.org',
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details?.issues).toEqual([expect.objectContaining({ path: 'items', message: 'A want list is at most 25 cards' })]);
  });

  it('answers a filled-in honeypot like a success, and creates nothing', async () => {
    const before = (await api.buyerRequests.list({ limit: 100 })).data.length;
    const res = await publicCall<WantListReceived>('POST', `/api/v1/public/sellers/${SELLER}/want-list`, { ...WANT, email: 'bot@example.net', website: 'https://spam.example' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ buyerId: expect.stringMatching(/^buyer_/), matchCount: 0, requests: [{ id: expect.stringMatching(/^br_/), matchCount: 0 }] });
    await expect(api.buyerRequests.retrieve(res.body.requests[0].id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await api.buyerRequests.list({ limit: 100 })).data).toHaveLength(before);
    expect(app.output()).toContain('caught by the honeypot');
  });

  it("enforces a seller's allow-list of origins, answering other pages without CORS headers", async () => {
    const settings = await api.widget.updateSettings({ allowedOrigins: ['https://Shop.Example/', PAGE_ORIGIN] });
    expect(settings).toMatchObject({ seller: SELLER, allowedOrigins: [PAGE_ORIGIN, 'https://shop.example'], snippet: expect.stringContaining(`data-seller="${SELLER}"`) });
    const bad = await http<ErrorBody>(app.url, 'PUT', '/api/v1/widget/settings', { key, body: { allowedOrigins: ['https://shop.example/cards'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toMatchObject({ issues: [expect.objectContaining({ path: 'allowedOrigins.0' })] });
    const refused = await http<ErrorBody>(app.url, 'POST', `/api/v1/public/sellers/${SELLER}/want-list`, { body: WANT, headers: { origin: 'https://elsewhere.example' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED', details: { origin: 'https://elsewhere.example' } });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const allowed = await http(app.url, 'GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=pika`, { headers: { origin: 'https://shop.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    await api.widget.updateSettings({ allowedOrigins: [] });
    expect((await http(app.url, 'GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=pika`, { headers: { origin: 'https://elsewhere.example' } })).status).toBe(200);
  });

  it('holds every widget request to a new allow-list as soon as the PUT answers, and to an empty one likewise', async () => {
    const foreign = 'https://elsewhere.example';
    const call = (i: number) =>
      i % 2 === 0
        ? http<unknown>(app.url, 'GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=pika`, { headers: { origin: foreign } })
        : http<unknown>(app.url, 'POST', `/api/v1/public/sellers/${SELLER}/want-list`, { body: WANT, headers: { origin: foreign } });
    const seen = (res: Awaited<ReturnType<typeof call>>) => [res.status, res.headers.get('access-control-allow-origin')];
    for (let round = 0; round < 3; round += 1) {
      await api.widget.updateSettings({ allowedOrigins: [] });
      // Any page now, and the gate has just read the settings (what it keeps for a while).
      expect(seen(await call(0))).toEqual([200, '*']);
      const answered = await api.widget.updateSettings({ allowedOrigins: ['https://shop.example'] });
      expect(answered.allowedOrigins).toEqual(['https://shop.example']);
      const after: unknown[] = [];
      for (let i = 0; i < 10; i += 1) after.push(seen(await call(i)));
      expect(after).toEqual(Array.from({ length: 10 }, () => [403, null]));
    }
    await api.widget.updateSettings({ allowedOrigins: [] });
    expect(seen(await call(0))).toEqual([200, '*']);
    await expect(api.widget.retrieveSettings()).resolves.toMatchObject({ allowedOrigins: [] });
  });

  it("erases a buyer's personal data: the contact unreadable through the API, still after a rebuild, the log not rewritten", async () => {
    const readOnly = await api.apiKeys.create({ name: 'reader', scopes: ['read:requests'] });
    const limited = new CommerceClient({ apiKey: readOnly.secret, baseUrl: app.url, maxRetries: 0 });
    await expect(limited.buyers.erasePersonalData(received.buyerId)).rejects.toBeInstanceOf(InsufficientScopeError);
    await expect(api.buyers.erasePersonalData('buyer_aaaaaaaaaaaaaaaaaaaaaaaaaa')).rejects.toBeInstanceOf(NotFoundError);
    const malformed = await http<ErrorBody>(app.url, 'DELETE', '/api/v1/buyers/nobody/personal-data', { key });
    expect(malformed.status).toBe(400);

    const eventsBefore = await api.events.list({ limit: 100 });
    const erased = await api.buyers.erasePersonalData(received.buyerId);
    expect(erased).toMatchObject({ buyerId: received.buyerId, personalData: 'erased', buyerRequestCount: 2 });
    await expect(api.buyers.erasePersonalData(received.buyerId)).resolves.toEqual(erased);

    const check = async (): Promise<void> => {
      const request = await api.buyerRequests.retrieve(received.requests[0].id);
      expect(request).toMatchObject({ cardName: 'Charizard', source: 'widget', matchCount: 2, buyerId: received.buyerId, contact: null, contactErased: true });
    };
    await check();
    // The public events are the same ones, and the log still holds the sealed contact it had.
    const eventsAfter = await api.events.list({ limit: 100 });
    expect(eventsAfter.data.map((e) => e.id)).toEqual(eventsBefore.data.map((e) => e.id));

    const rebuilt = await cli(app.dataDir, ['projections', 'rebuild', 'buyer_requests']);
    expect(rebuilt.code).toBe(0);
    await check();
    const list = await api.buyerRequests.list({ buyerId: received.buyerId });
    expect(list.data.every((r) => r.contact === null && r.contactErased)).toBe(true);
  });

  it('never lets the email reach the logs, the webhook payloads, the public events or the database files in clear', async () => {
    // created + matched + two match.created for the first request, created for the second.
    const deliveries = await receiver.waitFor('/hooks', 5);
    const payloads = receiver.at('/hooks').map((r) => r.body);
    expect(payloads.some((p) => p.includes('"buyer_request.created"') && p.includes('"source":"widget"'))).toBe(true);
    expect(deliveries.length).toBeGreaterThan(0);
    const events = JSON.stringify((await api.events.list({ limit: 100 })).data);
    const files = readdirSync(app.dataDir)
      .filter((f) => /\.db(-wal)?$/.test(f))
      .map((f) => readFileSync(join(app.dataDir, f)).toString('latin1'))
      .join('');
    expect(app.output().length).toBeGreaterThan(0);
    for (const secret of SECRETS) {
      expect(app.output()).not.toContain(secret);
      for (const p of payloads) expect(p).not.toContain(secret);
      expect(events).not.toContain(secret);
      expect(files).not.toContain(secret);
    }
  });
});

describe('the want-list widget: rate limits (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({
      env: {
        RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: '4',
        RATE_LIMIT_WIDGET_SELLER_PER_MINUTE: '6',
        RATE_LIMIT_WIDGET_SELLER_PER_SECOND: '100',
      },
    });
    await createWorkspace(app.dataDir, SELLER);
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    if (app) removeDir(app.dataDir);
  }, 30_000);

  it('limits the wanted cards (lines) sent from one IP, then everyone\'s requests for one seller: 429 with {code, message, details}', async () => {
    const send = (lines = 1) =>
      http<ErrorBody>(app.url, 'POST', `/api/v1/public/sellers/${SELLER}/want-list`, {
        body: { ...WANT, items: Array.from({ length: lines }, () => WANT.items[0]) },
        headers: { origin: PAGE_ORIGIN },
      });
    // A three-line list counts three of the IP's four a minute: one more line passes, the next is refused.
    expect((await send(3)).status).toBe(201);
    expect((await send()).status).toBe(201);
    const third = await send();
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests: this IP address \(wanted cards sent\) is over its rate limit of 4 requests per minute\. Retry after \d+ seconds?\.$/),
      details: { retry_after: expect.any(Number) },
    });
    expect(Number(third.headers.get('retry-after'))).toBe(third.body.details?.retry_after);
    // The seller counts lines too: 3 + 1 + 1 of its six; one suggestion takes the last, the next is refused.
    for (let i = 0; i < 1; i += 1) {
      expect((await http(app.url, 'GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=pika`)).status).toBe(200);
    }
    const over = await http<ErrorBody>(app.url, 'GET', `/api/v1/public/sellers/${SELLER}/card-suggestions?q=pika`);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining(`seller ${SELLER}'s widget`), details: { retry_after: expect.any(Number) } });
  });
});
