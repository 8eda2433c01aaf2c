// The client: one Transport (auth, JSON, timeouts, retries with backoff and jitter, an
// Idempotency-Key on every write) shared by the resource groups, one per part of the API.
//
//   const api = new CommerceClient({ apiKey: process.env.API_KEY, baseUrl: 'https://api.example.com' });
//   const { id } = await api.buyerRequests.create({ cardName: 'Charizard', setName: 'Base Set', condition: 'NM', maxPrice: 350 });
//   for await (const trade of api.secureTrades.list({ status: 'paid' })) console.log(trade.id);
import { API_BASE_PATH, type FetchLike, type RetryPolicy, Transport } from './core/transport';
import { ApiKeys } from './resources/api-keys';
import { Automations } from './resources/automations';
import { BuyerRequests } from './resources/buyer-requests';
import { Buyers } from './resources/buyers';
import { Events } from './resources/events';
import { EventTypes } from './resources/event-types';
import { Holds } from './resources/holds';
import { Ingestion } from './resources/ingestion';
import { Inventory } from './resources/inventory';
import { LiveSessions } from './resources/live-sessions';
import { MatchPacks } from './resources/match-packs';
import { Notifications } from './resources/notifications';
import { Offers } from './resources/offers';
import { callRoute, type RequestOptions } from './resources/resource';
import { SecureTrades } from './resources/secure-trades';
import { TradeGraph } from './resources/trade-graph';
import { Trust } from './resources/trust';
import { Webhooks } from './resources/webhooks';
import { Widget } from './resources/widget';
import type { Health, OpenApiDocument, Readiness } from './types';

export interface CommerceClientOptions {
  /**
   * The API key (`Authorization: Bearer …`). Omit it only to call the public routes (health, the
   * trust credential, keys and verifier).
   */
  apiKey?: string;
  /** The server's origin, e.g. `https://api.example.com` (a path prefix is kept; a trailing `/api/v1` is not doubled). */
  baseUrl: string;
  /** Per attempt, in milliseconds; 30 s by default. */
  timeoutMs?: number;
  /**
   * How many times a call is retried after no answer, a 5xx, a 429 or an Idempotency-Key still in
   * use; 2 by default. Waits: what the server asked (up to 60 s), else random(0, 0.5 s × 2^n), at most 8 s.
   */
  maxRetries?: number;
  /** A fetch to use instead of the global one (Node ≥ 18 and browsers have one). */
  fetch?: FetchLike;
  /** The backoff's bounds (`baseDelayMs` 500, `maxDelayMs` 8000, `maxServerWaitMs` 60000). */
  retry?: Partial<RetryPolicy>;
}

const OPTION_NAMES: ReadonlySet<string> = new Set(['apiKey', 'baseUrl', 'timeoutMs', 'maxRetries', 'fetch', 'retry']);
const RETRY_NAMES: ReadonlySet<string> = new Set(['baseDelayMs', 'maxDelayMs', 'maxServerWaitMs']);

export class CommerceClient {
  /** Buyer demand: create, list, retrieve, update, archive, listMatches. */
  readonly buyerRequests: BuyerRequests;
  /** Inventory items: create, list, retrieve, update, delete. */
  readonly inventory: Inventory;
  /** Match packs: list, retrieve, run (a match run). */
  readonly matchPacks: MatchPacks;
  /** Trades: create, list, retrieve, transition. */
  readonly secureTrades: SecureTrades;
  /** Offers: create, list, retrieve, accept, counter, reject. */
  readonly offers: Offers;
  /** Holds: create, list, retrieve, payDeposit, convert, release. */
  readonly holds: Holds;
  /** Live sessions and their lots and reserves. */
  readonly liveSessions: LiveSessions;
  /** Webhook subscriptions, their deliveries, and the signature checks of a receiver. */
  readonly webhooks: Webhooks;
  /** Automation rules and their runs. */
  readonly automations: Automations;
  /** Analytics reports: summary, supply, pricing, routing. */
  readonly tradeGraph: TradeGraph;
  /** Intake sessions for batch supply. */
  readonly ingestion: Ingestion;
  /** Seller trust: credentials, keys, verification, score, scans. */
  readonly trust: Trust;
  /** The public event log. */
  readonly events: Events;
  /** API keys. */
  readonly apiKeys: ApiKeys;
  /** The event catalogue. */
  readonly eventTypes: EventTypes;
  /** Widget buyers: erasing one's personal data. */
  readonly buyers: Buyers;
  /** The want-list widget: settings, and its public suggestion and want-list routes. */
  readonly widget: Widget;
  /** The in-stock emails your want-list buyers get: the list, a preview, the outbox. */
  readonly notifications: Notifications;

  private readonly transport: Transport;

  constructor(options: CommerceClientOptions) {
    const checked = validate(options);
    this.transport = new Transport(checked);
    this.buyerRequests = new BuyerRequests(this.transport);
    this.inventory = new Inventory(this.transport);
    this.matchPacks = new MatchPacks(this.transport);
    this.secureTrades = new SecureTrades(this.transport);
    this.offers = new Offers(this.transport);
    this.holds = new Holds(this.transport);
    this.liveSessions = new LiveSessions(this.transport);
    this.webhooks = new Webhooks(this.transport);
    this.automations = new Automations(this.transport);
    this.tradeGraph = new TradeGraph(this.transport);
    this.ingestion = new Ingestion(this.transport);
    this.trust = new Trust(this.transport, siteUrlOf(checked.baseUrl));
    this.events = new Events(this.transport);
    this.apiKeys = new ApiKeys(this.transport);
    this.eventTypes = new EventTypes(this.transport);
    this.buyers = new Buyers(this.transport);
    this.widget = new Widget(this.transport, siteUrlOf(checked.baseUrl));
    this.notifications = new Notifications(this.transport);
  }

  /** GET /health (public): the process answers. */
  health(options?: RequestOptions): Promise<Health> {
    return callRoute(this.transport, '/api/v1/health', 'get', {}, options);
  }

  /**
   * GET /health/ready (public): both stores answer. Not ready is an `ApiError` coded NOT_READY
   * (503, `details.checks`); not retried unless `maxRetries` says so, as a probe wants the state now.
   */
  readiness(options?: RequestOptions): Promise<Readiness> {
    return callRoute(this.transport, '/api/v1/health/ready', 'get', {}, { maxRetries: 0, ...options });
  }

  /** GET /openapi.json (public): the API's OpenAPI 3.1 document. */
  openApiDocument(options?: RequestOptions): Promise<OpenApiDocument> {
    return callRoute(this.transport, '/api/v1/openapi.json', 'get', {}, options);
  }
}

/** The options checked, with a message naming the option, before the transport reads them. */
function validate(options: CommerceClientOptions): CommerceClientOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError("CommerceClient: pass the options, e.g. new CommerceClient({ apiKey, baseUrl: 'https://api.example.com' })");
  }
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.has(name));
  if (unknown.length > 0) {
    throw new TypeError(`CommerceClient: unknown option ${unknown.map((n) => `"${n}"`).join(', ')}; the options are ${[...OPTION_NAMES].join(', ')}`);
  }
  const { apiKey, baseUrl, timeoutMs, maxRetries, fetch, retry } = options;
  if (baseUrl === undefined || baseUrl === null || baseUrl === '') {
    throw new TypeError("CommerceClient: baseUrl is required — the server's origin, e.g. 'https://api.example.com'");
  }
  if (typeof baseUrl !== 'string') throw new TypeError(`CommerceClient: baseUrl must be a string, not ${typeof baseUrl}`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`CommerceClient: baseUrl is not an absolute URL: "${baseUrl}" (e.g. 'https://api.example.com')`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`CommerceClient: baseUrl must be http or https, not ${url.protocol}`);
  if (url.search || url.hash) throw new TypeError(`CommerceClient: baseUrl takes no query or fragment: "${baseUrl}"`);
  if (url.username || url.password) throw new TypeError('CommerceClient: baseUrl takes no credentials: pass the key as apiKey');
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === '' || /\s/.test(apiKey))) {
    throw new TypeError('CommerceClient: apiKey must be a non-empty string without spaces (omit it to call only the public routes)');
  }
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`CommerceClient: timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}`);
  }
  if (maxRetries !== undefined && !(typeof maxRetries === 'number' && Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new RangeError(`CommerceClient: maxRetries must be a whole number, 0 or more, not ${String(maxRetries)}`);
  }
  if (fetch !== undefined && typeof fetch !== 'function') throw new TypeError('CommerceClient: fetch must be a function');
  if (retry !== undefined) {
    if (retry === null || typeof retry !== 'object') throw new TypeError('CommerceClient: retry must be an object');
    for (const [name, value] of Object.entries(retry)) {
      if (!RETRY_NAMES.has(name)) throw new TypeError(`CommerceClient: unknown retry option "${name}"; they are ${[...RETRY_NAMES].join(', ')}`);
      if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
        throw new RangeError(`CommerceClient: retry.${name} must be a number of milliseconds, 0 or more, not ${String(value)}`);
      }
    }
  }
  return { apiKey, baseUrl, timeoutMs, maxRetries, fetch, retry };
}

/** The origin and path prefix of the server, without /api/v1: where the embed and verification pages are. */
function siteUrlOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${prefix.endsWith(API_BASE_PATH) ? prefix.slice(0, -API_BASE_PATH.length) : prefix}`;
}
