// Webhook signatures with node:crypto, as the app makes them and as a receiver checks them.
import { createHmac, timingSafeEqual } from 'node:crypto';

// Signing, as the app does it (libs/webhooks/src/delivery/signing.ts): the spec's header over the
// raw body keyed with the secret as given; Standard Webhooks over "id.timestamp.body" keyed with
// the base64 part of `whsec_…`.

const standardKey = (secret) => (secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8'));

export function signatureHeaders(body, id, secret, timestamp) {
  return {
    'x-service-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
  };
}

function sameBytes(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether any of the comma-separated `sha256=<hex>` values is the HMAC of `raw` under `secret`. */
export function verifySpec(header, raw, secret) {
  if (typeof header !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  return header.split(',').some((v) => sameBytes(v.trim(), expected));
}

export function verifyStandard(headers, raw, secret) {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false;
  const expected = `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${ts}.`).update(raw).digest('base64')}`;
  return sig.split(' ').some((v) => sameBytes(v, expected));
}
