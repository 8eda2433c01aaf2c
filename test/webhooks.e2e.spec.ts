// Signed webhooks end to end, subscriptions and deliveries: a local receiver checks every delivery's
// signatures with node:crypto; what is delivered to whom, test deliveries, secret rotation and the
// SSRF guard. Failing receivers, retries and replay: webhook-failures.e2e.spec.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { WebhookReceiver } from './support/webhook-receiver';
import { type Envelope, ENV, envelopeOf, signedWith, sleep, webhookCalls } from './support/webhooks';

describe('webhooks (e2e)', () => {
  const receiver = new WebhookReceiver();
  let app: RunningApp;
  const { subscribe, addItem, deliveries } = webhookCalls(() => app, receiver);

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({ env: ENV });
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
    await receiver.stop();
  });

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
});
