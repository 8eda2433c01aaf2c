// The client's types by friendly names: what the API answers (its schemas, as the server names
// them) and what its methods take (the body or query of their route). All come from the generated
// OpenAPI types, so they follow the server's routes; for a route not named here use
// `Body<'/api/v1/…', 'post'>`, `Query<…>`, `Answer<…>`, `Item<…>` or `Schema<'…'>`.
import type { Body, Query, Schema } from './endpoint-types';

export type { Answer, Body, Item, Method, PathParams, Paths, Query, Schema } from './endpoint-types';

// ——— What the API answers ———
export type BuyerRequest = Schema<'BuyerRequest'>;
/** The answer of `buyerRequests.create`: the new request's id and how many matches it found at once. */
export type CreatedBuyerRequest = Schema<'CreatedBuyerRequest'>;
export type Buyer = Schema<'Buyer'>;
export type Match = Schema<'Match'>;
export type InventoryItem = Schema<'InventoryItem'>;
export type CreatedInventoryItem = Schema<'CreatedInventoryItem'>;
export type UpdatedInventoryItem = Schema<'UpdatedInventoryItem'>;
export type DeletedInventoryItem = Schema<'DeletedInventoryItem'>;
export type MatchPack = Schema<'MatchPack'>;
export type PackedMatch = Schema<'PackedMatch'>;
export type Trade = Schema<'Trade'>;
export type TradeStatus = Trade['status'];
export type Offer = Schema<'Offer'>;
export type Hold = Schema<'Hold'>;
export type LiveSession = Schema<'LiveSession'>;
export type Lot = Schema<'Lot'>;
export type Reserve = Schema<'Reserve'>;
export type Webhook = Schema<'Webhook'>;
/** The answer of `webhooks.create`: the webhook with its signing `secret`, shown this once. */
export type CreatedWebhook = Schema<'CreatedWebhook'>;
/** The answer of `webhooks.rotateSecret`: the webhook with its new `secret`, shown this once. */
export type RotatedWebhook = Schema<'RotatedWebhook'>;
export type DeletedWebhook = Schema<'DeletedWebhook'>;
export type WebhookDelivery = Schema<'WebhookDelivery'>;
export type WebhookDeliveryDetail = Schema<'WebhookDeliveryDetail'>;
export type WebhookReplay = Schema<'WebhookReplay'>;
export type WebhookTestResult = Schema<'WebhookTestResult'>;
export type Automation = Schema<'Automation'>;
export type AutomationAction = Schema<'AutomationAction'>;
export type AutomationTrigger = Schema<'AutomationTrigger'>;
export type AutomationCondition = Schema<'AutomationCondition'>;
export type AutomationRun = Schema<'AutomationRun'>;
export type AutomationTest = Schema<'AutomationTest'>;
export type IngestionSession = Schema<'IngestionSession'>;
export type IngestionRow = Schema<'IngestionRow'>;
export type AddedIngestionItems = Schema<'AddedIngestionItems'>;
export type IngestionPushResult = Schema<'IngestionPushResult'>;
/** A public event as the log and webhooks carry it (`{ id: 'evt_…', type, created_at, workspace_id, data }`). */
export type CommerceEvent = Schema<'Event'>;
export type EventType = Schema<'EventType'>;
export type ApiKey = Schema<'ApiKey'>;
/** The answer of `apiKeys.create`: the key with its `secret`, shown this once. */
export type CreatedApiKey = Schema<'CreatedApiKey'>;
export type ApiKeyScope = NonNullable<Schema<'CreateApiKey'>['scopes']>[number];
export type TrustCredential = Schema<'TrustCredential'>;
export type TrustPublicKey = Schema<'TrustPublicKey'>;
export type TrustScore = Schema<'TrustScore'>;
export type TrustScans = Schema<'TrustScans'>;
export type TrustScanDay = TrustScans['data'][number];
export type TrustFlag = Schema<'TrustFlag'>;
export type CredentialVerification = Schema<'CredentialVerification'>;
/**
 * A Bitstring Status List credential (W3C): the server documents no schema for it, so it is read
 * as a JSON object.
 */
export type TrustStatusList = Record<string, unknown>;
export type TradegraphSummary = Schema<'TradegraphSummary'>;
export type TradegraphSupply = Schema<'TradegraphSupply'>;
export type TradegraphPricing = Schema<'TradegraphPricing'>;
export type TradegraphRouting = Schema<'TradegraphRouting'>;
export type DemandCluster = Schema<'DemandCluster'>;
export type CardSupply = Schema<'CardSupply'>;
export type CardPricing = Schema<'CardPricing'>;
export type PricingAnomaly = Schema<'PricingAnomaly'>;
export type RoutedItem = Schema<'RoutedItem'>;
export type BuyerContact = Schema<'BuyerContact'>;
export type ErasedPersonalData = Schema<'ErasedPersonalData'>;
export type WidgetSettings = Schema<'WidgetSettings'>;
export type NotificationSettings = Schema<'NotificationSettings'>;
export type Notification = Schema<'Notification'>;
export type NotificationPreview = Schema<'NotificationPreview'>;
export type NotificationOutbox = Schema<'NotificationOutbox'>;
/** The answer of `widget.availability`: whether the widget works on the page asking, or why not. */
export type WidgetAvailability = Schema<'WidgetAvailability'>;
export type CardSuggestions = Schema<'CardSuggestions'>;
export type CardSuggestion = CardSuggestions['data'][number];
/** The answer of `widget.submitWantList`: the buyer id and one answer per card (its criteria and match count). */
export type WantListReceived = Schema<'WantListReceived'>;
/** The answer of `widget.resolveWantList`: each pasted line as the catalogue reads it, or its error. */
export type ResolvedWantList = Schema<'ResolvedWantList'>;
export type ResolvedWantLine = ResolvedWantList['lines'][number];
export type Health = Schema<'Health'>;
export type Readiness = Schema<'Readiness'>;
export type OpenApiDocument = Schema<'OpenApiDocument'>;

// ——— What the methods take ———
export type BuyerRequestCreateParams = Body<'/api/v1/buyer-requests', 'post'>;
export type BuyerRequestUpdateParams = Body<'/api/v1/buyer-requests/{id}', 'patch'>;
export type BuyerRequestArchiveParams = Body<'/api/v1/buyer-requests/{id}/archive', 'post'>;
export type BuyerRequestListParams = Query<'/api/v1/buyer-requests', 'get'>;
export type MatchListParams = Query<'/api/v1/buyer-requests/{id}/matches', 'get'>;
export type InventoryItemCreateParams = Body<'/api/v1/inventory', 'post'>;
export type InventoryItemUpdateParams = Body<'/api/v1/inventory/{id}', 'patch'>;
export type InventoryItemListParams = Query<'/api/v1/inventory', 'get'>;
export type MatchPackListParams = Query<'/api/v1/match-packs', 'get'>;
export type MatchRunParams = Body<'/api/v1/match-runs', 'post'>;
export type TradeCreateParams = Body<'/api/v1/trades', 'post'>;
export type TradeTransitionParams = Body<'/api/v1/trades/{id}/transitions', 'post'>;
export type TradeListParams = Query<'/api/v1/trades', 'get'>;
export type OfferCreateParams = Body<'/api/v1/offers', 'post'>;
export type OfferAcceptParams = Body<'/api/v1/offers/{id}/accept', 'post'>;
export type OfferCounterParams = Body<'/api/v1/offers/{id}/counter', 'post'>;
export type OfferRejectParams = Body<'/api/v1/offers/{id}/reject', 'post'>;
export type OfferListParams = Query<'/api/v1/offers', 'get'>;
export type HoldCreateParams = Body<'/api/v1/holds', 'post'>;
export type HoldDepositParams = Body<'/api/v1/holds/{id}/deposit', 'post'>;
export type HoldReleaseParams = Body<'/api/v1/holds/{id}/release', 'post'>;
export type HoldListParams = Query<'/api/v1/holds', 'get'>;
export type LiveSessionCreateParams = Body<'/api/v1/live-sessions', 'post'>;
export type LiveSessionListParams = Query<'/api/v1/live-sessions', 'get'>;
export type LotCreateParams = Body<'/api/v1/live-sessions/{id}/lots', 'post'>;
export type LotListParams = Query<'/api/v1/live-sessions/{id}/lots', 'get'>;
export type ReserveCreateParams = Body<'/api/v1/live-sessions/{id}/lots/{lotId}/reserves', 'post'>;
export type ReserveListParams = Query<'/api/v1/live-sessions/{id}/lots/{lotId}/reserves', 'get'>;
export type WebhookCreateParams = Body<'/api/v1/webhooks', 'post'>;
export type WebhookUpdateParams = Body<'/api/v1/webhooks/{id}', 'patch'>;
export type WebhookReplayParams = Body<'/api/v1/webhooks/{id}/replay', 'post'>;
export type WebhookListParams = Query<'/api/v1/webhooks', 'get'>;
export type WebhookDeliveryListParams = Query<'/api/v1/webhooks/{id}/deliveries', 'get'>;
export type AutomationCreateParams = Body<'/api/v1/automations', 'post'>;
export type AutomationUpdateParams = Body<'/api/v1/automations/{id}', 'patch'>;
export type AutomationTestParams = Body<'/api/v1/automations/{id}/test', 'post'>;
export type AutomationListParams = Query<'/api/v1/automations', 'get'>;
export type AutomationRunListParams = Query<'/api/v1/automations/{id}/runs', 'get'>;
export type IngestionSessionCreateParams = Body<'/api/v1/ingestion/sessions', 'post'>;
export type IngestionSessionListParams = Query<'/api/v1/ingestion/sessions', 'get'>;
/** Rows as JSON objects keyed by column (names are case-insensitive, with aliases: `{ card: 'Pikachu', set: 'Base Set', condition: 'NM', price: 12 }`). */
export type IngestionItemRows = Body<'/api/v1/ingestion/sessions/{id}/items', 'post'>;
export type IngestionRowListParams = Query<'/api/v1/ingestion/sessions/{id}/rows', 'get'>;
export type EventListParams = Query<'/api/v1/events', 'get'>;
export type ApiKeyCreateParams = Body<'/api/v1/api-keys', 'post'>;
export type ApiKeyListParams = Query<'/api/v1/api-keys', 'get'>;
export type TrustCredentialParams = Query<'/api/v1/trust/credential/{slug}', 'get'>;
export type TrustVerifyParams = Body<'/api/v1/trust/verify', 'post'>;
export type TrustRevokeParams = Body<'/api/v1/trust/credential/revoke', 'post'>;
export type TrustScanListParams = Query<'/api/v1/trust/scans', 'get'>;
export type TradegraphSummaryParams = Query<'/api/v1/tradegraph/summary', 'get'>;
export type TradegraphSupplyParams = Query<'/api/v1/tradegraph/supply', 'get'>;
export type TradegraphPricingParams = Query<'/api/v1/tradegraph/pricing', 'get'>;
export type TradegraphRoutingParams = Query<'/api/v1/tradegraph/routing', 'get'>;
export type WidgetSettingsUpdateParams = Body<'/api/v1/widget/settings', 'put'>;
export type NotificationSettingsUpdateParams = Body<'/api/v1/widget/settings/notifications', 'put'>;
export type NotificationListParams = Query<'/api/v1/notifications', 'get'>;
export type CardSuggestionsParams = Query<'/api/v1/public/sellers/{slug}/card-suggestions', 'get'>;
export type WantListParams = Body<'/api/v1/public/sellers/{slug}/want-list', 'post'>;
export type WantListTextParams = Body<'/api/v1/public/sellers/{slug}/want-list/resolve', 'post'>;
