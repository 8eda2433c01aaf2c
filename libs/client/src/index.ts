// The client's main entry, browser-safe (fetch, WebCrypto; nothing of Node's): the client and its
// resource groups, the types of what they take and answer, the errors, pagination, and the
// WebCrypto signature checks of a webhook receiver. Node servers receiving webhooks may use the
// synchronous node:crypto checks of the `./webhooks` entry (libs/client/src/webhooks.ts) instead.
export { CommerceClient, type CommerceClientOptions } from './client';
export { etagOf, ReportPromise, type RequestOptions } from './resources/resource';
export { ApiKeys } from './resources/api-keys';
export { Automations } from './resources/automations';
export { BuyerRequests } from './resources/buyer-requests';
export { Buyers } from './resources/buyers';
export { Events } from './resources/events';
export { EventTypes } from './resources/event-types';
export { Holds } from './resources/holds';
export { Ingestion } from './resources/ingestion';
export { Inventory } from './resources/inventory';
export { LiveSessions } from './resources/live-sessions';
export { MatchPacks } from './resources/match-packs';
export { Notifications } from './resources/notifications';
export { Offers } from './resources/offers';
export { SecureTrades } from './resources/secure-trades';
export { TradeGraph } from './resources/trade-graph';
export { Trust } from './resources/trust';
export { Webhooks } from './resources/webhooks';
export { Widget } from './resources/widget';

export * from './types';
export * from './core/errors';
export { Page, PagePromise, paginate, type ListResponse, type PageData, type PageFetcher } from './core/pagination';
export {
  API_BASE_PATH,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_POLICY,
  DEFAULT_TIMEOUT_MS,
  encodePath,
  type FetchLike,
  type RetryPolicy,
  type TransportOptions,
} from './core/transport';
export { CLIENT_USER_AGENT, CLIENT_VERSION } from './core/version';
export {
  parseWebhookEvent,
  type RawBody,
  type StandardWebhookHeaders,
  type StandardWebhookOptions,
  verifyStandardWebhookAsync,
  verifyWebhookSignatureAsync,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhook-signatures';
