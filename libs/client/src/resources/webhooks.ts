// webhooks: subscriptions of a URL to events — create (the signing secret is shown once), list,
// read, change, delete, send a test, rotate the secret, replay events, read the deliveries. And,
// for receivers running where fetch does (browsers, workers), the signature checks with WebCrypto;
// Node servers can use the synchronous ones of the package's `./webhooks` entry.
import type { PagePromise } from '../core/pagination';
import type {
  CreatedWebhook,
  DeletedWebhook,
  RotatedWebhook,
  Webhook,
  WebhookCreateParams,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryListParams,
  WebhookListParams,
  WebhookReplay,
  WebhookReplayParams,
  WebhookTestResult,
  WebhookUpdateParams,
} from '../types';
import {
  parseWebhookEvent,
  type RawBody,
  type StandardWebhookHeaders,
  type StandardWebhookOptions,
  verifyStandardWebhookAsync,
  verifyWebhookSignatureAsync,
  type WebhookEvent,
} from '../webhook-signatures';
import { type RequestOptions, Resource } from './resource';

export class Webhooks extends Resource {
  /** POST /webhooks: the answer's `secret` (`whsec_…`) is shown this once. */
  create(body: WebhookCreateParams, options?: RequestOptions): Promise<CreatedWebhook> {
    return this.call('/api/v1/webhooks', 'post', { body }, options);
  }

  /** GET /webhooks, newest first (never secrets). */
  list(query?: WebhookListParams, options?: RequestOptions): PagePromise<Webhook> {
    return this.listRoute('/api/v1/webhooks', { query }, options);
  }

  /** GET /webhooks/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<Webhook> {
    return this.call('/api/v1/webhooks/{id}', 'get', { path: { id } }, options);
  }

  /** PATCH /webhooks/{id}: url, events, description, `enabled`; re-enabling answers `missedWhileDisabled` (replay it). */
  update(id: string, body: WebhookUpdateParams, options?: RequestOptions): Promise<Webhook> {
    return this.call('/api/v1/webhooks/{id}', 'patch', { path: { id }, body }, options);
  }

  /** DELETE /webhooks/{id}: answers `{ id, deleted: true }`. */
  delete(id: string, options?: RequestOptions): Promise<DeletedWebhook> {
    return this.call('/api/v1/webhooks/{id}', 'delete', { path: { id } }, options);
  }

  /** POST /webhooks/{id}/test: sends a signed `webhook.test` event now; answers the receiver's status and body. */
  test(id: string, options?: RequestOptions): Promise<WebhookTestResult> {
    return this.call('/api/v1/webhooks/{id}/test', 'post', { path: { id } }, options);
  }

  /** POST /webhooks/{id}/rotate-secret: a new `secret`, shown once; the previous one signs beside it for 24 h. */
  rotateSecret(id: string, options?: RequestOptions): Promise<RotatedWebhook> {
    return this.call('/api/v1/webhooks/{id}/rotate-secret', 'post', { path: { id } }, options);
  }

  /** POST /webhooks/{id}/replay: `{ eventIds }` or `{ types?, from, to? }`; the original events again (≤ 1,000 a call). */
  replay(id: string, body: WebhookReplayParams, options?: RequestOptions): Promise<WebhookReplay> {
    return this.call('/api/v1/webhooks/{id}/replay', 'post', { path: { id }, body }, options);
  }

  /** GET /webhooks/{id}/deliveries, newest first, each with its attempts. */
  listDeliveries(id: string, query?: WebhookDeliveryListParams, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return this.listRoute('/api/v1/webhooks/{id}/deliveries', { path: { id }, query }, options);
  }

  /** GET /webhooks/{id}/deliveries/{deliveryId}: with the payload delivered. */
  retrieveDelivery(id: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDeliveryDetail> {
    return this.call('/api/v1/webhooks/{id}/deliveries/{deliveryId}', 'get', { path: { id, deliveryId } }, options);
  }

  // ——— Receiving deliveries (no request is made) ———

  /**
   * Checks `X-Service-Signature` on the raw body (WebCrypto): with or without `sha256=`, one of a
   * comma-separated list matching is enough. False when wrong; throws on a parsed body or a bad secret.
   */
  verifySignature(rawBody: RawBody, signatureHeader: string | null | undefined, secret: string): Promise<boolean> {
    return verifyWebhookSignatureAsync(rawBody, signatureHeader, secret);
  }

  /** Checks the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) on the raw body (WebCrypto). */
  verifyStandardSignature(rawBody: RawBody, headers: StandardWebhookHeaders, secret: string, options?: StandardWebhookOptions): Promise<boolean> {
    return verifyStandardWebhookAsync(rawBody, headers, secret, options);
  }

  /** Parses a verified body into the event envelope; throws `WebhookVerificationError` on anything else. */
  parseEvent<TData = Record<string, unknown>>(rawBody: RawBody): WebhookEvent<TData> {
    return parseWebhookEvent<TData>(rawBody);
  }
}
