// Helpers of the webhook e2e suites: the delivery shapes, the app's settings, both signatures
// checked with node:crypto (independently of the project's code), the delivery's own events as the
// app's log holds them, and the calls on the app. Polling: `until` in ./http.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { RunningApp } from './app-process';
import { http } from './http';
import type { Received, WebhookReceiver } from './webhook-receiver';

export interface Envelope {
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
  attemptedAt: string;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: Attempt[];
}

export const SCHEDULE_MS = [0, 1500, 3000, 1500];
export const ENV = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(','),
  WEBHOOK_TIMEOUT_MS: '400',
  WEBHOOK_POLL_MS: '100',
};

const hmacHex = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Both ways a receiver may verify: the spec's header, and the Standard Webhooks headers. */
export function signedWith(request: Received, secret: string): { spec: boolean; standard: boolean } {
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

export const envelopeOf = (request: Received) => JSON.parse(request.body) as Envelope;

/** One event of a delivery's stream, as the app recorded it (scheduled, attempted, succeeded, failed). */
export interface DeliveryEvent {
  type: string;
  data: { attempt?: number | null; scheduledAt?: string; dueAt?: string; attemptedAt?: string; nextAttemptAt?: string };
}

/**
 * A delivery's events from the app's log (`events.db` in its DATA_DIR, read-only): the times the
 * app computed (`dueAt`, `nextAttemptAt`) beside the ones it recorded, in log order.
 */
export function deliveryEvents(dataDir: string, deliveryId: string): DeliveryEvent[] {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    const rows = db.prepare("SELECT type, data FROM events WHERE json_extract(data, '$.deliveryId') = ? ORDER BY position").all(deliveryId) as Array<{ type: string; data: string }>;
    return rows.map((row) => ({ type: row.type, data: JSON.parse(row.data) as DeliveryEvent['data'] }));
  } finally {
    db.close();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The calls the suites make, on the app `app()` returns (a suite may restart its app) and `receiver`. */
export function webhookCalls(app: () => RunningApp, receiver: WebhookReceiver) {
  async function subscribe(key: string, path: string, events: string[]): Promise<{ id: string; secret: string }> {
    const res = await http<{ id: string; secret: string }>(app().url, 'POST', '/api/v1/webhooks', { key, body: { url: receiver.url(path), events } });
    expect(res.status).toBe(201);
    return res.body;
  }

  const addItem = (key: string, cardName = 'Charizard') =>
    http<{ id: string }>(app().url, 'POST', '/api/v1/inventory', { key, body: { cardName, setName: 'Base', condition: 'NM', price: 400 } });

  const deliveries = async (key: string, webhookId: string, query = '') =>
    (await http<{ data: Delivery[] }>(app().url, 'GET', `/api/v1/webhooks/${webhookId}/deliveries${query}`, { key })).body.data;

  return { subscribe, addItem, deliveries };
}
