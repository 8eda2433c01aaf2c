// Signed webhooks end to end: a local receiver checks every delivery's signatures with node:crypto
// (independently of the project's code); the schedule, a restart mid-schedule, time-outs, 410,
// replay, test deliveries, secret rotation, isolation between endpoints, and the SSRF guard.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { type Received, WebhookReceiver } from './support/webhook-receiver';

interface Envelope {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  data: Record<string, unknown>;
}

interface Attempt {
  attempt: number | null;
  outcome: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string;
}

interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: Attempt[];
}

const SCHEDULE_MS = [0, 1500, 3000, 1500];
const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(','),
  WEBHOOK_TIMEOUT_MS: '400',
  WEBHOOK_POLL_MS: '100',
};

const hmacHex = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Both ways a receiver may verify: the spec's header, and the Standard Webhooks headers. */
function signedWith(request: Received, secret: string): { spec: boolean; standard: boolean } {
  const expected = hmacHex(secret, request.body);
  const spec = String(request.headers['x-service-signature'] ?? '')
    .split(',')
    .map((s) => s.trim().replace(/^sha256=/, ''))
    .some((s) => sameText(s, expected));
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standardExpected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64')}`;
  const standard = String(request.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => sameText(s, standardExpected));
  return { spec, standard };
}

const envelopeOf = (request: Received) => JSON.parse(request.body) as Envelope;

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks (e2e)', () => {
  const receiver = new WebhookReceiver();
  let app: RunningApp;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({ env: ENV });
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
    await receiver.stop();
  });

  async function subscribe(key: string, path: string, events: string[]): Promise<{ id: string; secret: string }> {
    const res = await http<{ id: string; secret: string }>(app.url, 'POST', '/api/v1/webhooks', { key, body: { url: receiver.url(path), events } });
    expect(res.status).toBe(201);
    return res.body;
  }

  const addItem = (key: string, cardName = 'Charizard') =>
    http<{ id: string }>(app.url, 'POST', '/api/v1/inventory', { key, body: { cardName, setName: 'Base', condition: 'NM', price: 400 } });

  const deliveries = async (key: string, webhookId: string, query = '') =>
    (await http<{ data: Delivery[] }>(app.url, 'GET', `/api/v1/webhooks/${webhookId}/deliveries${query}`, { key })).body.data;

  it('manages subscriptions: the secret once, validated event types, update, delete', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-crud');
    const bad = await http<{ code: string; details: { issues: Array<{ path: string }> } }>(app.url, 'POST', '/api/v1/webhooks', {
      key,
      body: { url: receiver.url('/crud'), events: ['inventory.created', 'webhook.delivery_failed'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.details.issues[0].path).toBe('events.1');

    const created = await subscribe(key, '/crud', ['inventory.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await http<Record<string, unknown>>(app.url, 'GET', `/api/v1/webhooks/${created.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.id, url: receiver.url('/crud'), events: ['inventory.created'], status: 'enabled' });
    expect(JSON.stringify(read.body)).not.toContain(created.secret);
    const list = await http<{ data: Array<{ id: string }> }>(app.url, 'GET', '/api/v1/webhooks', { key });
    expect(list.body.data.map((w) => w.id)).toEqual([created.id]);
    expect(list.text).not.toContain('whsec_');

    const patched = await http<{ events: string[]; description: string }>(app.url, 'PATCH', `/api/v1/webhooks/${created.id}`, {
      key,
      body: { events: ['inventory.created', 'inventory.deleted'], description: 'desk' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['inventory.created', 'inventory.deleted'], description: 'desk' });

    const other = await createWorkspace(app.dataDir, 'wh-crud-other');
    expect((await http(app.url, 'GET', `/api/v1/webhooks/${created.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await http(app.url, 'DELETE', `/api/v1/webhooks/${created.id}`, { key: other.apiKey })).status).toBe(404);

    expect((await http(app.url, 'DELETE', `/api/v1/webhooks/${created.id}`, { key })).body).toEqual({ id: created.id, deleted: true });
    expect((await http(app.url, 'GET', `/api/v1/webhooks/${created.id}`, { key })).status).toBe(404);

    // The secret is sealed at rest: never in clear in the log, the read models or the logs.
    const files = readdirSync(app.dataDir).filter((f) => f.endsWith('.db') || f.endsWith('-wal'));
    for (const file of files) expect(readFileSync(join(app.dataDir, file)).includes(Buffer.from(created.secret))).toBe(false);
    expect(app.output()).not.toContain(created.secret);
  });

  it('delivers signed envelopes of the subscribed types only, never internal events', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-deliver');
    const items = await subscribe(key, '/items', ['inventory.created']);
    const requests = await subscribe(key, '/requests', ['buyer_request.created']);
    const item = await addItem(key);
    await http(app.url, 'PATCH', `/api/v1/inventory/${item.body.id}`, { key, body: { price: 410 } });
    await http(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { cardName: 'Blastoise', setName: 'Base', condition: 'NM', maxPrice: 100 },
    });
    const [delivered] = await receiver.waitFor('/items', 1);
    await receiver.waitFor('/requests', 1);
    await sleep(800);
    expect(receiver.at('/items')).toHaveLength(1);
    expect(receiver.at('/requests')).toHaveLength(1);

    expect(signedWith(delivered, items.secret)).toEqual({ spec: true, standard: true });
    expect(signedWith(delivered, requests.secret)).toEqual({ spec: false, standard: false });
    expect(signedWith(receiver.at('/requests')[0], requests.secret)).toEqual({ spec: true, standard: true });
    expect(delivered.headers['content-type']).toBe('application/json');
    expect(delivered.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(Math.abs(Number(delivered.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    const envelope = envelopeOf(delivered);
    expect(delivered.headers['webhook-id']).toBe(envelope.id);
    expect(envelope).toMatchObject({ type: 'inventory.created', data: { inventory_item_id: item.body.id, card_name: 'Charizard', price: 400 } });
    // Exactly what GET /events shows for it (the same id and payload).
    const listed = await http<{ data: Envelope[] }>(app.url, 'GET', '/api/v1/events?type=inventory.created', { key });
    expect(listed.body.data).toContainEqual(envelope);
    expect(envelopeOf(receiver.at('/requests')[0]).type).toBe('buyer_request.created');

    const history = await deliveries(key, items.id);
    expect(history).toEqual([
      expect.objectContaining({ eventId: envelope.id, eventType: 'inventory.created', status: 'succeeded', attempts: [expect.objectContaining({ attempt: 1, statusCode: 200, responseBody: 'ok' })] }),
    ]);
  });

  it('delivers to each webhook the events after its creation, by its subscription at the time', async () => {
    // The fan-out keeps a workspace's webhooks in memory between events: every change must show.
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-timeline');
    const first = await subscribe(key, '/timeline-first', ['inventory.created']);
    const before = await addItem(key, 'Before');
    const second = await subscribe(key, '/timeline-second', ['inventory.created']);
    const after = await addItem(key, 'After');
    await receiver.waitFor('/timeline-second', 1);
    await receiver.waitFor('/timeline-first', 2);
    const cardsAt = (path: string) => receiver.at(path).map((r) => (envelopeOf(r).data as { inventory_item_id: string }).inventory_item_id);
    // Deliveries run in parallel: arrival order is not promised.
    expect(cardsAt('/timeline-first').sort()).toEqual([before.body.id, after.body.id].sort());
    expect(cardsAt('/timeline-second')).toEqual([after.body.id]);

    // A new type, a disabled webhook and a deleted one count from the next event on.
    await http(app.url, 'PATCH', `/api/v1/webhooks/${first.id}`, { key, body: { events: ['inventory.created', 'buyer_request.created'] } });
    await http(app.url, 'PATCH', `/api/v1/webhooks/${second.id}`, { key, body: { enabled: false } });
    await http(app.url, 'POST', '/api/v1/buyer-requests', { key, body: { cardName: 'Blastoise', setName: 'Base', condition: 'NM', maxPrice: 100 } });
    const last = await addItem(key, 'Last');
    await receiver.waitFor('/timeline-first', 4);
    expect(receiver.at('/timeline-first').map((r) => envelopeOf(r).type).sort()).toEqual(['buyer_request.created', 'inventory.created', 'inventory.created', 'inventory.created']);
    await http(app.url, 'DELETE', `/api/v1/webhooks/${first.id}`, { key });
    await addItem(key, 'Gone');
    await sleep(800);
    expect(receiver.at('/timeline-first')).toHaveLength(4);
    expect(cardsAt('/timeline-first')).toContain(last.body.id);
    expect(receiver.at('/timeline-second')).toHaveLength(1);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-timeout');
    receiver.on('/hang', () => ({ hang: true }));
    const hook = await subscribe(key, '/hang', ['inventory.created']);
    await addItem(key);
    const [delivery] = await until('a recorded time-out', async () => {
      const found = await deliveries(key, hook.id);
      return found[0]?.attempts.length ? found : null;
    });
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, outcome: 'failed', statusCode: null, error: 'timeout after 400 ms' });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(390);
    expect(delivery.attempts[0].durationMs).toBeLessThan(1500);
    await http(app.url, 'DELETE', `/api/v1/webhooks/${hook.id}`, { key });
  });

  it('keeps delivering to a healthy endpoint while another one times out', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-isolation');
    receiver.on('/slow', () => ({ hang: true }));
    const slow = await subscribe(key, '/slow', ['inventory.created']);
    await subscribe(key, '/fast', ['inventory.created']);
    const started = Date.now();
    for (let i = 0; i < 30; i += 1) await addItem(key, `Pikachu ${i}`);
    const fast = await receiver.waitFor('/fast', 30, 10_000);
    // Both on one host:port (one socket pool). 30 deliveries to /slow take four rounds of 400 ms
    // time-outs at 8 at a time; /fast never waits for a socket /slow holds.
    expect(fast[29].at - started).toBeLessThan(1500);
    const lags = fast.map((r) => r.at - Date.parse(envelopeOf(r).created_at));
    expect(Math.max(...lags)).toBeLessThan(200);
    expect(receiver.at('/slow').length).toBeLessThan(30);
    await http(app.url, 'DELETE', `/api/v1/webhooks/${slow.id}`, { key });
  });

  it('replays from the log: the same evt_ id and the same bytes', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-replay');
    const hook = await subscribe(key, '/replay', ['inventory.created']);
    await addItem(key);
    const [original] = await receiver.waitFor('/replay', 1);
    const id = envelopeOf(original).id;
    const replay = await http<{ scheduled: number; eventIds: string[] }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: { eventIds: [id] } });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ scheduled: 1, eventIds: [id] });
    const [, again] = await receiver.waitFor('/replay', 2);
    expect(again.headers['webhook-id']).toBe(id);
    expect(again.body).toBe(original.body);
    expect(signedWith(again, hook.secret)).toEqual({ spec: true, standard: true });

    const byRange = await http<{ scheduled: number; skipped: unknown[] }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, {
      key,
      body: { from: new Date(Date.now() - 60_000).toISOString(), types: ['inventory.created'] },
    });
    expect(byRange.body).toMatchObject({ scheduled: 1 });
    await receiver.waitFor('/replay', 3);
    const unknown = await http<{ skipped: Array<{ reason: string }> }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, {
      key,
      body: { eventIds: [`evt_${'0'.repeat(32)}`] },
    });
    expect(unknown.body.skipped).toEqual([{ eventId: `evt_${'0'.repeat(32)}`, reason: 'not_found' }]);
    expect((await http(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: {} })).status).toBe(400);
  });

  it('a 410 disables the webhook at once; re-enabling offers the missed range to replay', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-gone');
    receiver.on('/gone', (n) => (n === 1 ? { status: 410, body: 'gone' } : { status: 200 }));
    const hook = await subscribe(key, '/gone', ['inventory.created']);
    await addItem(key);
    const disabled = await until('the webhook disabled', async () => {
      const res = await http<{ status: string; disabledReason: string }>(app.url, 'GET', `/api/v1/webhooks/${hook.id}`, { key });
      return res.body.status === 'disabled' ? res.body : null;
    });
    expect(disabled.disabledReason).toBe('gone');
    const [failed] = await deliveries(key, hook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: [expect.objectContaining({ statusCode: 410 })] });

    const missed = await addItem(key, 'Missed Mew');
    await sleep(600);
    expect(receiver.at('/gone')).toHaveLength(1);

    const enabled = await http<{ status: string; missedWhileDisabled: { from: string; to: string } }>(app.url, 'PATCH', `/api/v1/webhooks/${hook.id}`, {
      key,
      body: { enabled: true },
    });
    expect(enabled.body.status).toBe('enabled');
    const replay = await http<{ scheduled: number }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: enabled.body.missedWhileDisabled });
    expect(replay.body.scheduled).toBe(1);
    const [, second] = await receiver.waitFor('/gone', 2);
    expect(envelopeOf(second).data.inventory_item_id).toBe(missed.body.id);
  });

  it('sends a signed test event and reports the receiver\'s status and body', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-test');
    receiver.on('/test', () => ({ status: 202, body: 'hello from the receiver' }));
    const hook = await subscribe(key, '/test', ['inventory.created']);
    const res = await http<{ status: number; body: string; ok: boolean; eventId: string }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/test`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 202, body: 'hello from the receiver', ok: true });
    const [request] = receiver.at('/test');
    expect(envelopeOf(request)).toMatchObject({ id: res.body.eventId, type: 'webhook.test' });
    expect(signedWith(request, hook.secret)).toEqual({ spec: true, standard: true });
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-rotate');
    const hook = await subscribe(key, '/rotate', ['inventory.created']);
    const rotated = await http<{ secret: string; previousSecretsExpireAt: string }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(Date.parse(rotated.body.previousSecretsExpireAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await addItem(key);
    const [request] = await receiver.waitFor('/rotate', 1);
    expect(String(request.headers['x-service-signature']).split(',')).toHaveLength(2);
    expect(signedWith(request, rotated.body.secret)).toEqual({ spec: true, standard: true });
    expect(signedWith(request, hook.secret)).toEqual({ spec: true, standard: true });
  });

  it('refuses private, loopback, link-local and plain-http targets unless the flags allow them', async () => {
    const strict = await startApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } });
    try {
      const { apiKey: key } = await createWorkspace(strict.dataDir, 'wh-ssrf');
      const create = (url: string) => http<{ code: string; message: string }>(strict.url, 'POST', '/api/v1/webhooks', { key, body: { url, events: ['inventory.created'] } });
      const http1 = await create(receiver.url('/x'));
      expect(http1.status).toBe(400);
      expect(http1.body.message).toMatch(/https/);
      for (const url of ['https://127.0.0.1/x', 'https://localhost/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://10.1.2.3/x', 'https://user:pw@hooks.example.com/x']) {
        const res = await create(url);
        expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'VALIDATION_FAILED' });
      }
      expect((await create('https://hooks.example.com/collectibles')).status).toBe(201);
    } finally {
      await strict.stop();
      removeDir(strict.dataDir);
    }
  });

  it('disables a webhook whose every attempt failed for WEBHOOK_DISABLE_AFTER (24 h, scaled)', async () => {
    const scaled = await startApp({ env: { ...ENV, WEBHOOK_RETRY_SCHEDULE: '0,600ms,600ms,600ms', WEBHOOK_DISABLE_AFTER: '1s' } });
    try {
      const { apiKey: key } = await createWorkspace(scaled.dataDir, 'wh-failing');
      receiver.on('/down', () => ({ status: 500, body: 'down' }));
      const res = await http<{ id: string }>(scaled.url, 'POST', '/api/v1/webhooks', { key, body: { url: receiver.url('/down'), events: ['inventory.created'] } });
      await http(scaled.url, 'POST', '/api/v1/inventory', { key, body: { cardName: 'Onix', setName: 'Base', condition: 'NM', price: 1 } });
      const disabled = await until('the webhook disabled', async () => {
        const hook = await http<{ status: string; disabledReason: string; failingSince: string | null }>(scaled.url, 'GET', `/api/v1/webhooks/${res.body.id}`, { key });
        return hook.body.status === 'disabled' ? hook.body : null;
      });
      expect(disabled.disabledReason).toBe('failing');
      expect(disabled.failingSince).not.toBeNull();
      // Attempts 1-3 span 1.2 s: the third one finds it failing for over 1 s; nothing is sent after.
      await sleep(1500);
      expect(receiver.at('/down')).toHaveLength(3);
      const [delivery] = (await http<{ data: Delivery[] }>(scaled.url, 'GET', `/api/v1/webhooks/${res.body.id}/deliveries`, { key })).body.data;
      expect(delivery).toMatchObject({ status: 'failed', failureReason: 'webhook_disabled' });
    } finally {
      await scaled.stop();
      removeDir(scaled.dataDir);
    }
  });

  // Last: it restarts the app.
  it('retries a failing receiver at the schedule\'s offsets, across a restart, without repeating an attempt', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-retry');
    receiver.on('/flaky', (n) => (n < SCHEDULE_MS.length ? { status: 500, body: `down ${n}` } : { status: 200, body: 'back' }));
    const hook = await subscribe(key, '/flaky', ['inventory.created']);
    const created = Date.now();
    await addItem(key);
    await receiver.waitFor('/flaky', 2);
    // Attempt 2 is in; stop mid-schedule (attempt 3 is due 3 s later) and start again.
    await until('attempt 2 recorded', async () => (await deliveries(key, hook.id))[0]?.attempts.length === 2);
    await app.stop();
    app = await startApp({ dataDir: app.dataDir, env: ENV });
    const arrivals = (await receiver.waitFor('/flaky', SCHEDULE_MS.length, 20_000)).map((r) => r.at);
    await sleep(SCHEDULE_MS[3] + 500);
    expect(receiver.at('/flaky')).toHaveLength(SCHEDULE_MS.length);

    expect(arrivals[0] - created).toBeLessThan(1000);
    for (let i = 1; i < arrivals.length; i += 1) {
      const gap = arrivals[i] - arrivals[i - 1];
      expect(gap).toBeGreaterThanOrEqual(SCHEDULE_MS[i] - 50);
      expect(gap).toBeLessThan(SCHEDULE_MS[i] + 1000);
    }
    const bodies = new Set(receiver.at('/flaky').map((r) => r.body));
    expect(bodies.size).toBe(1);
    const [delivery] = await until('the success recorded', async () => {
      const found = await deliveries(key, hook.id);
      return found[0]?.status === 'succeeded' ? found : null;
    });
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 200],
    ]);
    const failed = await deliveries(key, hook.id, '?status=failed');
    expect(failed).toEqual([]);
  });
});
