// The WebCrypto checks (main entry, browser-safe) against the node:crypto ones (`./webhooks`
// entry): the same verdict on the same deliveries, good and bad, and the same misuse errors. Also
// reachable as `api.webhooks.verifySignature` / `verifyStandardSignature` / `parseEvent`.
import { createHmac } from 'node:crypto';

// Through the package's two entries, as a user imports them (the aliases of tsconfig, .swcrc, jest).
import { CommerceClient, parseWebhookEvent as parseInMain, verifyStandardWebhookAsync, verifyWebhookSignatureAsync, WebhookVerificationError } from '@app/client';
import { parseWebhookEvent, verifyStandardWebhook, verifyWebhookSignature, WebhookVerificationError as NodeEntryError } from '@app/client/webhooks';

const secret = 'whsec_c2VjcmV0LWtleS1mb3ItdGVzdHMtb25seS0xMjM0NTY=';
const body = JSON.stringify({
  id: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
  type: 'trade.completed',
  created_at: '2026-11-22T12:00:00.000Z',
  workspace_id: 'ws_1',
  data: { trade_id: 'trd_1', amount: 120.5, note: 'ünïcödé ✓' },
});
const hex = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('hex');
const good = hex(secret, body);

describe('verifyWebhookSignatureAsync agrees with verifyWebhookSignature', () => {
  it.each<[string, string | null | undefined, string]>([
    ['bare hex', good, body],
    ['with sha256=', `sha256=${good}`, body],
    ['upper-case hex', good.toUpperCase(), body],
    ['a list while rotating', `sha256=${hex('whsec_old', body)}, sha256=${good}`, body],
    ['another secret', hex('whsec_other', body), body],
    ['a changed body', good, `${body} `],
    ['a truncated signature', good.slice(0, 63), body],
    ['garbage', 'sha256=zz', body],
    ['an empty header', '', body],
    ['no header', undefined, body],
  ])('%s', async (_case, header, payload) => {
    const expected = verifyWebhookSignature(payload, header, secret);
    await expect(verifyWebhookSignatureAsync(payload, header, secret)).resolves.toBe(expected);
    await expect(verifyWebhookSignatureAsync(new TextEncoder().encode(payload), header, secret)).resolves.toBe(expected);
  });

  it('accepts the signature of a Buffer slice (a view into a larger buffer)', async () => {
    const framed = Buffer.from(`xx${body}yy`).subarray(2, 2 + Buffer.byteLength(body));
    await expect(verifyWebhookSignatureAsync(framed, good, secret)).resolves.toBe(true);
  });

  it('names the same mistakes', async () => {
    await expect(verifyWebhookSignatureAsync(JSON.parse(body) as unknown as string, good, secret)).rejects.toThrow(/raw request body/);
    await expect(verifyWebhookSignatureAsync(body, good, ` ${secret}`)).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});

describe('verifyStandardWebhookAsync agrees with verifyStandardWebhook', () => {
  const id = 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718';
  const now = new Date('2026-11-22T12:00:00.000Z');
  const ts = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const sign = (t: string, payload = body, k: Buffer = key) => createHmac('sha256', k).update(`${id}.${t}.${payload}`).digest('base64');
  const old = String(Number(ts) - 301);

  it.each<[string, Record<string, string>, string, string?]>([
    ['a v1 signature', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts)}` }, body],
    ['among several', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,AAAA v1,${sign(ts)}` }, body],
    ['outside the tolerance', { 'webhook-id': id, 'webhook-timestamp': old, 'webhook-signature': `v1,${sign(old)}` }, body],
    ['a changed body', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts)}` }, `${body} `],
    ['a wrong version', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v2,${sign(ts)}` }, body],
    ['no signature', { 'webhook-id': id, 'webhook-timestamp': ts }, body],
    ['a timestamp that is not seconds', { 'webhook-id': id, 'webhook-timestamp': `${ts}.5`, 'webhook-signature': `v1,${sign(`${ts}.5`)}` }, body],
    ['a secret without whsec_', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts, body, Buffer.from('plain-secret'))}` }, body, 'plain-secret'],
    ['base64 that is not a signature', { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': 'v1,!!!not-base64' }, body],
  ])('%s', async (_case, headers, payload, withSecret = secret) => {
    const expected = verifyStandardWebhook(payload, headers, withSecret, { now });
    await expect(verifyStandardWebhookAsync(payload, headers, withSecret, { now })).resolves.toBe(expected);
    // The same headers as a fetch Headers (a worker's or a browser's request).
    await expect(verifyStandardWebhookAsync(payload, new Headers(headers), withSecret, { now })).resolves.toBe(expected);
  });

  it('accepts the good ones at all (the table is not all refusals)', async () => {
    await expect(verifyStandardWebhookAsync(body, { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts)}` }, secret, { now })).resolves.toBe(true);
    expect(verifyStandardWebhook(body, new Headers({ 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sign(ts)}` }), secret, { now })).toBe(true);
  });
});

describe('one envelope parser and one error class for both entries', () => {
  it('is the same function and class', () => {
    expect(parseWebhookEvent).toBe(parseInMain);
    expect(NodeEntryError).toBe(WebhookVerificationError);
  });

  it('parses bytes as UTF-8', () => {
    expect(parseInMain<{ note: string }>(Buffer.from(body)).data.note).toBe('ünïcödé ✓');
  });
});

describe('api.webhooks: the receiver checks on the client', () => {
  const api = new CommerceClient({ baseUrl: 'https://api.example.test', fetch: async () => new Response('{}') });

  it('verifies and parses without a request', async () => {
    await expect(api.webhooks.verifySignature(body, `sha256=${good}`, secret)).resolves.toBe(true);
    await expect(api.webhooks.verifySignature(body, hex('whsec_other', body), secret)).resolves.toBe(false);
    const id = 'evt_1';
    const ts = '1790000000';
    const signature = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${ts}.${body}`).digest('base64');
    const headers = { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${signature}` };
    await expect(api.webhooks.verifyStandardSignature(body, headers, secret, { now: new Date(Number(ts) * 1000) })).resolves.toBe(true);
    expect(api.webhooks.parseEvent<{ amount: number }>(body).data.amount).toBe(120.5);
  });
});
