// The receiver helpers, checked against signatures computed here with node:crypto directly.
import { createHmac } from 'node:crypto';

import { parseWebhookEvent, verifyStandardWebhook, verifyWebhookSignature, WebhookVerificationError } from './webhooks';

const secret = 'whsec_c2VjcmV0LWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY=';
const body = JSON.stringify({
  id: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
  type: 'trade.completed',
  created_at: '2026-11-22T12:00:00.000Z',
  workspace_id: 'ws_1',
  data: { trade_id: 'trd_1', offer_id: 'ofr_1', amount: 120.5, status: 'completed' },
});
const hex = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('hex');

describe('verifyWebhookSignature', () => {
  const good = hex(secret, body);

  it.each([
    ['bare hex', good],
    ['with sha256=', `sha256=${good}`],
    ['upper-case hex', good.toUpperCase()],
    ['in a list, after an old secret\'s signature', `sha256=${hex('whsec_old', body)}, sha256=${good}`],
  ])('accepts %s', (_case, header) => {
    expect(verifyWebhookSignature(body, header, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, secret)).toBe(true);
  });

  it.each([
    ['another secret', hex('whsec_other', body)],
    ['a changed body', hex(secret, `${body} `)],
    ['a truncated signature', good.slice(0, 63)],
    ['garbage', 'sha256=zz'],
    ['an empty header', ''],
  ])('refuses %s', (_case, header) => {
    expect(verifyWebhookSignature(body, header, secret)).toBe(false);
  });

  it('refuses a missing header', () => {
    expect(verifyWebhookSignature(body, undefined, secret)).toBe(false);
  });

  it('names the classic mistakes: a parsed body, a secret with whitespace', () => {
    expect(() => verifyWebhookSignature(JSON.parse(body) as unknown as string, good, secret)).toThrow(/raw request body/);
    expect(() => verifyWebhookSignature(body, good, ` ${secret}\n`)).toThrow(WebhookVerificationError);
  });
});

describe('verifyStandardWebhook', () => {
  const id = 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718';
  const now = new Date('2026-11-22T12:00:00.000Z');
  const ts = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const sign = (t: string, payload = body) => createHmac('sha256', key).update(`${id}.${t}.${payload}`).digest('base64');

  it('accepts a v1 signature over id.timestamp.body, also among several', () => {
    const headers = { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts)}` };
    expect(verifyStandardWebhook(body, headers, secret, { now })).toBe(true);
    expect(verifyStandardWebhook(body, { ...headers, 'webhook-signature': `v1,AAAA v1,${sign(ts)}` }, secret, { now })).toBe(true);
  });

  it('refuses a replay outside the tolerance, a changed body and a wrong version', () => {
    const old = String(Number(ts) - 301);
    expect(verifyStandardWebhook(body, { 'webhook-id': id, 'webhook-timestamp': old, 'webhook-signature': `v1,${sign(old)}` }, secret, { now })).toBe(false);
    expect(verifyStandardWebhook(`${body} `, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts)}` }, secret, { now })).toBe(false);
    expect(verifyStandardWebhook(body, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v2,${sign(ts)}` }, secret, { now })).toBe(false);
    expect(verifyStandardWebhook(body, { 'webhook-id': id, 'webhook-timestamp': ts }, secret, { now })).toBe(false);
  });
});

describe('parseWebhookEvent', () => {
  it('returns the typed envelope', () => {
    const event = parseWebhookEvent<{ trade_id: string; amount: number }>(body);
    expect(event.type).toBe('trade.completed');
    expect(event.data.amount).toBe(120.5);
  });

  it.each([['not json', '{'], ['an array', '[]'], ['no evt_ id', JSON.stringify({ id: 'x', type: 't', created_at: 'c', workspace_id: 'w', data: {} })]])(
    'refuses %s',
    (_case, raw) => {
      expect(() => parseWebhookEvent(raw)).toThrow(WebhookVerificationError);
    },
  );
});
