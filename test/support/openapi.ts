// Reads the live OpenAPI document and turns its operations into real requests: the suites that
// walk "every operation" (fuzz, scope matrix, isolation) learn the routes from the document, so a
// new route is covered by them as soon as it is documented.
import type { HttpMethod, OpenApiDocument, OperationObject, Scope } from '@app/platform';

import { http } from './http';

export interface Operation {
  method: HttpMethod;
  /** The path template, e.g. `/api/v1/buyer-requests/{id}`. */
  path: string;
  op: OperationObject;
}

export async function fetchDocument(baseUrl: string): Promise<OpenApiDocument> {
  const res = await http<OpenApiDocument>(baseUrl, 'GET', '/api/v1/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}: ${res.text}`);
  return res.body;
}

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The operations the walking suites call with API keys. The portal's session routes
 * (`/portal/api/…`) are not among them: they take a session cookie, never a key, and their own
 * suites (test/portal.e2e.spec.ts, test/portal-browser.e2e.spec.ts) walk them.
 */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      if (path.startsWith('/portal/api/')) return [];
      const op = item[method];
      return op ? [{ method, path, op }] : [];
    }),
  );
}

export function describeOperation(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path} (${operation.op.operationId})`;
}

export function isPublic(operation: Operation): boolean {
  return operation.op.security.length === 0;
}

export function requiredScope(operation: Operation): Scope | undefined {
  return operation.op['x-required-scope'];
}

/** Every scope the operation needs (all of them); empty when any key will do. */
export function requiredScopes(operation: Operation): Scope[] {
  const first = operation.op['x-required-scope'];
  return operation.op['x-required-scopes'] ?? (first ? [first] : []);
}

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

export function bodyExample(operation: Operation): unknown {
  return operation.op.requestBody?.content['application/json']?.example;
}

/** The success statuses the document promises for the operation. */
export function successStatuses(operation: Operation): number[] {
  return Object.keys(operation.op.responses)
    .map(Number)
    .filter((status) => status < 400);
}

function paramExample(operation: Operation, name: string): unknown {
  const parameter = operation.op.parameters?.find((p) => p.in === 'path' && p.name === name);
  return parameter?.schema.examples?.[0];
}

/** Collections without a POST of their own, and the operation whose POST creates their resources. */
const CREATED_BY: Readonly<Record<string, string>> = { '/api/v1/match-packs': '/api/v1/match-runs' };
/**
 * Resources the walking suites need in a state their creation does not give: a live session is
 * started (its lots can open, it can end), a lot opened (it takes reserves).
 */
const PREPARED_BY: Readonly<Record<string, (baseUrl: string, resource: string, key: string) => Promise<unknown>>> = {
  '/api/v1/live-sessions': (baseUrl, resource, key) => expectOk(http(baseUrl, 'POST', `${resource}/start`, { key })),
  '/api/v1/live-sessions/{id}/lots': (baseUrl, resource, key) => expectOk(http(baseUrl, 'POST', `${resource}/open`, { key })),
};

async function expectOk(call: Promise<{ status: number; text: string }>): Promise<void> {
  const res = await call;
  if (res.status >= 300) throw new Error(`preparing a resource answered ${res.status}: ${res.text}`);
}

/** An example id in a request body stands for a resource of this collection. */
const COLLECTION_OF_ID_PREFIX: Readonly<Record<string, string>> = {
  br: '/api/v1/buyer-requests',
  inv: '/api/v1/inventory',
  ing: '/api/v1/ingestion/sessions',
};
const EXAMPLE_ID = /^([a-z]+)_[0-9A-Z]{26}$/;

type Producer = (baseUrl: string, document: OpenApiDocument, collection: string, key: string) => Promise<string>;

/**
 * A widget buyer of the key's workspace emailed about a card in stock (once per app and key): the
 * email's notice id in the outbox and its unsubscribe token. Its own address, so erasing the
 * buyers other operations make never deletes this email.
 */
const emailed = new Map<string, Promise<{ notificationId: string; token: string }>>();
function emailedBuyer(baseUrl: string, document: OpenApiDocument, key: string): Promise<{ notificationId: string; token: string }> {
  const cacheKey = `${baseUrl} ${key}`;
  let found = emailed.get(cacheKey);
  if (!found) {
    found = (async () => {
      const settings = await http<{ seller?: string }>(baseUrl, 'GET', '/api/v1/widget/settings', { key });
      if (settings.status !== 200 || !settings.body.seller) throw new Error(`GET /api/v1/widget/settings answered ${settings.status}: ${settings.text}`);
      const example = document.paths['/api/v1/public/sellers/{slug}/want-list']?.post?.requestBody?.content['application/json']?.example as
        | { items: Array<{ cardName: string; setName: string; condition: string; maxPrice: number }> }
        | undefined;
      if (!example) throw new Error('the want-list route has no body example');
      const item = example.items[0];
      const sent = await http(baseUrl, 'POST', `/api/v1/public/sellers/${settings.body.seller}/want-list`, { body: { ...example, email: 'outbox.buyer@example.org' } });
      if (sent.status !== 201) throw new Error(`sending a want list answered ${sent.status}: ${sent.text}`);
      const stocked = await http(baseUrl, 'POST', '/api/v1/inventory', { key, body: { cardName: item.cardName, setName: item.setName, condition: item.condition, price: item.maxPrice } });
      if (stocked.status !== 201) throw new Error(`POST /api/v1/inventory answered ${stocked.status}: ${stocked.text}`);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const outbox = await http<{ data?: Array<{ notificationId: string }> }>(baseUrl, 'GET', '/api/v1/notifications/outbox', { key });
        const notificationId = outbox.body.data?.[0]?.notificationId;
        if (notificationId) {
          const raw = await http(baseUrl, 'GET', `/api/v1/notifications/outbox/${notificationId}`, { key });
          const token = /\/email\/unsubscribe\/([\w.-]+)>/.exec(raw.text)?.[1];
          if (!token) throw new Error(`the email ${notificationId} has no unsubscribe link`);
          return { notificationId, token };
        }
        if (Date.now() > deadline) throw new Error(`no email in the outbox after 30 s: ${outbox.status} ${outbox.text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    emailed.set(cacheKey, found);
  }
  return found;
}

/** Collections no POST adds to, and how the API brings one of their resources about. */
const PRODUCED_BY: Readonly<Record<string, Producer>> = {
  // A buyer: one who sent the workspace's widget a want list (public, by the seller's slug).
  '/api/v1/buyers': async (baseUrl, document, _collection, key) => {
    const settings = await http<{ seller?: string }>(baseUrl, 'GET', '/api/v1/widget/settings', { key });
    if (settings.status !== 200 || !settings.body.seller) throw new Error(`GET /api/v1/widget/settings answered ${settings.status}: ${settings.text}`);
    const submit = document.paths['/api/v1/public/sellers/{slug}/want-list']?.post;
    const body = submit?.requestBody?.content['application/json']?.example;
    const sent = await http<{ buyerId?: string }>(baseUrl, 'POST', `/api/v1/public/sellers/${settings.body.seller}/want-list`, { body });
    if (sent.status !== 201 || !sent.body.buyerId) throw new Error(`sending a want list answered ${sent.status}: ${sent.text}`);
    return sent.body.buyerId;
  },
  // An email in the outbox (the app runs without SMTP_URL): a want list, then the card in stock.
  '/api/v1/notifications/outbox': async (baseUrl, document, _collection, key) => (await emailedBuyer(baseUrl, document, key)).notificationId,
  // The email's one-click unsubscribe token (signed by the server: only an email carries one).
  '/email/unsubscribe': async (baseUrl, document, _collection, key) => (await emailedBuyer(baseUrl, document, key)).token,
  // A delivery: the webhook listens to buyer_request.created, and a buyer request is created.
  '/api/v1/webhooks/{id}/deliveries': async (baseUrl, document, collection, key) => {
    const webhook = collection.slice(0, -'/deliveries'.length);
    const patched = await http(baseUrl, 'PATCH', webhook, { key, body: { events: ['buyer_request.created'] } });
    if (patched.status !== 200) throw new Error(`PATCH ${webhook} answered ${patched.status}: ${patched.text}`);
    await createResource(baseUrl, document, '/api/v1/buyer-requests', '/api/v1/buyer-requests', key);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await http<{ data?: Array<{ id: string }> }>(baseUrl, 'GET', collection, { key });
      const id = res.body.data?.[0]?.id;
      if (id) return id;
      if (Date.now() > deadline) throw new Error(`no delivery in ${collection} after 10 s: ${res.status} ${res.text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  },
};

/**
 * The operation's body example with every example id of a known kind (`br_…`) replaced by a
 * resource created for `key`, so that the example is a valid request in that workspace.
 */
export async function exampleBody(baseUrl: string, document: OpenApiDocument, operation: Operation, key: string): Promise<unknown> {
  return materialize(baseUrl, document, bodyExample(operation), key);
}

/** An example event id (`evt_` + 32 hex) stands for an event of the workspace: a buyer request's creation. */
const EXAMPLE_EVENT_ID = /^evt_[0-9a-f]{32}$/;

async function producedEvent(baseUrl: string, document: OpenApiDocument, key: string): Promise<string> {
  const requestId = await createResource(baseUrl, document, '/api/v1/buyer-requests', '/api/v1/buyer-requests', key);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await http<{ data?: Array<{ id: string; data: Record<string, unknown> }> }>(baseUrl, 'GET', '/api/v1/events?type=buyer_request.created', { key });
    const id = res.body.data?.find((e) => e.data.buyer_request_id === requestId)?.id;
    if (id) return id;
    if (Date.now() > deadline) throw new Error(`no buyer_request.created event of ${requestId} after 10 s: ${res.status} ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function materialize(baseUrl: string, document: OpenApiDocument, value: unknown, key: string): Promise<unknown> {
  if (typeof value === 'string' && EXAMPLE_EVENT_ID.test(value)) return producedEvent(baseUrl, document, key);
  if (typeof value === 'string') {
    const collection = COLLECTION_OF_ID_PREFIX[EXAMPLE_ID.exec(value)?.[1] ?? ''];
    return collection ? createResource(baseUrl, document, collection, collection, key) : value;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => materialize(baseUrl, document, v, key)));
  if (value !== null && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await materialize(baseUrl, document, v, key)]));
    return Object.fromEntries(entries);
  }
  return value;
}

/** Creates a resource with the POST on `collection` (a concrete path) and its body example. */
export async function createResource(
  baseUrl: string,
  document: OpenApiDocument,
  template: string,
  collection: string,
  key: string,
): Promise<string> {
  const creatorTemplate = document.paths[template]?.post ? template : CREATED_BY[template];
  const creator = creatorTemplate ? document.paths[creatorTemplate]?.post : undefined;
  if (!creatorTemplate || !creator) throw new Error(`no POST ${template} to create a resource with`);
  const example = creator.requestBody?.content['application/json']?.example;
  const body = await materialize(baseUrl, document, example, key);
  const res = await http<{ id?: unknown }>(baseUrl, 'POST', creatorTemplate === template ? collection : creatorTemplate, { key, body });
  if (res.status >= 300 || typeof res.body.id !== 'string') {
    throw new Error(`creating with POST ${collection} answered ${res.status}: ${res.text}`);
  }
  await PREPARED_BY[template]?.(baseUrl, `${collection}/${res.body.id}`, key);
  return res.body.id;
}

/**
 * A concrete path for the operation: each `{param}` is a resource created (with `ownerKey`) by the
 * POST on the collection before it, or else the parameter's example (e.g. a docs asset name).
 */
export async function concretePath(
  baseUrl: string,
  document: OpenApiDocument,
  operation: Operation,
  ownerKey: string,
  /** Values for named parameters that are not resources one creates (a seller's slug, its status list id). */
  params: Readonly<Record<string, string>> = {},
): Promise<string> {
  const segments = operation.path.split('/');
  const out: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const param = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!param) {
      out.push(segment);
      continue;
    }
    const template = segments.slice(0, i).join('/');
    if (document.paths[template]?.post || CREATED_BY[template]) {
      out.push(encodeURIComponent(await createResource(baseUrl, document, template, out.join('/'), ownerKey)));
      continue;
    }
    const producer = PRODUCED_BY[template];
    if (producer) {
      out.push(encodeURIComponent(await producer(baseUrl, document, out.join('/'), ownerKey)));
      continue;
    }
    const example = params[param] ?? paramExample(operation, param);
    if (typeof example !== 'string') {
      throw new Error(`${describeOperation(operation)}: no POST ${template} and no example for {${param}}`);
    }
    out.push(encodeURIComponent(example));
  }
  return out.join('/');
}

/** Sends the operation's valid request (by default its body example) to a concrete path. */
export function callOperation(
  baseUrl: string,
  operation: Operation,
  path: string,
  key: string | undefined,
  body: unknown = bodyExample(operation),
) {
  return http<unknown>(baseUrl, operation.method.toUpperCase(), path, { key, body });
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Exactly the error shape: `code` and `message` strings, an optional `details` object, nothing else. */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  const allowed = entries.every(([key]) => key === 'code' || key === 'message' || key === 'details');
  const fields = new Map(entries);
  const details = fields.get('details');
  return (
    allowed &&
    typeof fields.get('code') === 'string' &&
    typeof fields.get('message') === 'string' &&
    (details === undefined || (details !== null && typeof details === 'object' && !Array.isArray(details)))
  );
}

/**
 * The suites that walk every operation send hundreds of requests a second from one workspace and
 * one IP; rate limiting has its own suite, so these lift the limits.
 */
export const UNTHROTTLED_ENV: Record<string, string> = {
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLIC_PER_SECOND: '1000000',
  RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000',
  RATE_LIMIT_WIDGET_SELLER_PER_SECOND: '1000000',
  RATE_LIMIT_WIDGET_SELLER_PER_MINUTE: '1000000',
  RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND: '1000000',
  RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: '1000000',
  // Their webhooks point at the example url (hooks.example.com): no DNS look-up when creating them,
  // and a short bound on a test send, so the machine's resolver does not set the pace. The SSRF
  // rules and the time-out have their own tests.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '1000',
};
