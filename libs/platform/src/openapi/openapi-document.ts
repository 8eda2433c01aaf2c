// Builds the OpenAPI 3.1 document from the routes and their @ApiOperation metadata. Pure: no Nest,
// so it is unit-tested directly. Inconsistent metadata (an example its schema rejects, an unknown
// error code, a path parameter without a schema) throws, naming the operation.
import type { z } from 'zod';

import type { Scope } from '../http/scopes';
import type { ApiOperationSpec } from './api-operation';
import { bodyIsOptional } from './api-operation-spec';
import { ERROR_CATALOG, errorBodySchema, errorCodeSpec } from './error-catalog';
import { API_TITLE, API_VERSION, apiDescription } from './openapi-info';
import { type JsonSchema, SchemaComponents } from './openapi-schema';
import type {
  ExampleObject,
  HttpMethod,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RefObject,
  ResponseObject,
} from './openapi-types';

/** A route with its documentation: what the route discovery hands over. */
export interface DocumentedRoute {
  method: HttpMethod;
  /** OpenAPI form: `/api/v1/buyer-requests/{id}`. */
  path: string;
  spec: ApiOperationSpec;
  scope?: Scope;
  /** Every required scope (all needed); absent or one: `scope` alone. */
  scopes?: Scope[];
  isPublic: boolean;
  /** Honours `Idempotency-Key` (@Idempotent). */
  idempotent: boolean;
}

const JSON_TYPE = 'application/json';
const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const ETAG_HEADER = { ETag: { $ref: '#/components/headers/ETag' } };
const RETRY_AFTER_HEADER = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };

/** Headers an operation may declare in `headers`; unknown names are documented as plain strings. */
const KNOWN_HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
  'If-Match': {
    description:
      'Optimistic concurrency: the `ETag` of the resource as you last saw it (`W/"3"`). The write happens only if the resource ' +
      'is still at that version; otherwise `412 PRECONDITION_FAILED`, `details.currentETag` naming where it is now.',
    schema: { type: 'string' },
  },
  'Idempotency-Key': {
    description:
      'Makes a retried write safe: the same key with the same request answers the first result again; ' +
      'with a different request it answers `422 IDEMPOTENCY_KEY_REUSED`.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
};

export function buildOpenApiDocument(routes: readonly DocumentedRoute[]): OpenApiDocument {
  const components = new SchemaComponents();
  components.convert(errorBodySchema, 'output');
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  const tags: string[] = [];

  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const id = route.spec.operationId;
    if (operationIds.has(id)) throw new Error(`OpenAPI: operationId "${id}" is used twice`);
    operationIds.add(id);
    for (const tag of route.spec.tags) if (!tags.includes(tag)) tags.push(tag);
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`OpenAPI: ${route.method.toUpperCase()} ${route.path} is documented twice`);
    try {
      item[route.method] = buildOperation(route, components);
    } catch (error) {
      throw new Error(`OpenAPI: operation ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return {
    openapi: '3.1.0',
    info: { title: API_TITLE, version: API_VERSION, description: apiDescription() },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: tags.map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: components.all(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`sk_…`), created with the CLI or `POST /api/v1/api-keys`. Its scopes limit what it may do.',
        },
      },
      examples: Object.fromEntries(
        Object.entries(ERROR_CATALOG).map(([code, spec]): [string, ExampleObject] => [code, { summary: spec.when, value: spec.example }]),
      ),
      headers: {
        'X-Request-Id': {
          description: 'The request id (yours when you sent a sane `X-Request-Id`); quote it when reporting a problem.',
          schema: { type: 'string' },
        },
        'Retry-After': {
          description: 'Seconds to wait before retrying (the same number as `details.retry_after`).',
          schema: { type: 'integer', minimum: 0 },
        },
        ETag: {
          description: "The resource's version (its event stream's revision, `W/\"3\"`): send it back as `If-Match` to make a write conditional.",
          schema: { type: 'string' },
        },
      },
    },
  };
}

function buildOperation(route: DocumentedRoute, components: SchemaComponents): OperationObject {
  const { spec } = route;
  const parameters = [...pathParameters(route, components), ...queryParameters(spec, components), ...headerParameters(route)];
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: [spec.description, accessLine(route)].filter(Boolean).join('\n\n'),
    tags: spec.tags,
    security: route.isPublic ? [] : [{ bearerAuth: (route.scopes ?? []).length > 0 ? [...(route.scopes ?? [])] : route.scope ? [route.scope] : [] }],
    ...(route.scope && !route.isPublic ? { 'x-required-scope': route.scope } : {}),
    ...((route.scopes ?? []).length > 1 && !route.isPublic ? { 'x-required-scopes': [...(route.scopes ?? [])] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body ? { requestBody: requestBody(spec.body, spec.bodyExample, components) } : {}),
    responses: { ...successResponses(spec, components), ...errorResponses(route) },
  };
}

function requestBody(body: z.ZodType, example: unknown, components: SchemaComponents): NonNullable<OperationObject['requestBody']> {
  checkExample(body, example, 'bodyExample');
  const media: MediaTypeObject = { schema: components.convert(body, 'input') };
  if (example !== undefined) media.example = example;
  return { required: !bodyIsOptional(body), content: { [JSON_TYPE]: media } };
}

function accessLine(route: DocumentedRoute): string {
  if (route.isPublic) return '**Public**: no API key needed.';
  if (!route.scope) return '**Requires** an API key (any scope).';
  if (route.scopes && route.scopes.length > 1) {
    return `**Requires scopes** ${route.scopes.map((s: Scope) => `\`${s}\``).join(', ')} — all of them (each also granted by \`admin\`, a \`read:\` one by its \`write:\`).`;
  }
  const also = route.scope.startsWith('read:') ? `, \`write:${route.scope.slice('read:'.length)}\`` : '';
  return `**Requires scope** \`${route.scope}\` (also granted by \`admin\`${also}).`;
}

/** Every `{name}` of the path, described by the `params` schema when there is one. */
function pathParameters(route: DocumentedRoute, components: SchemaComponents): ParameterObject[] {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const declared = route.spec.params ? objectSchema(route.spec.params, components, 'params') : undefined;
  if (declared) {
    const extra = Object.keys(declared.properties).filter((name) => !names.includes(name));
    if (extra.length > 0) throw new Error(`params names ${extra.join(', ')}, which the path ${route.path} lacks`);
  }
  return names.map((name) => {
    const schema = declared?.properties[name] ?? { type: 'string' };
    return withDescription({ name, in: 'path', required: true, schema });
  });
}

function queryParameters(spec: ApiOperationSpec, components: SchemaComponents): ParameterObject[] {
  if (!spec.query) return [];
  const query = objectSchema(spec.query, components, 'query');
  return Object.entries(query.properties).map(([name, schema]) =>
    withDescription({ name, in: 'query', required: query.required.includes(name), schema }),
  );
}

/** Routes marked @Idempotent honour `Idempotency-Key`; `headers` adds any other. */
function takesIdempotencyKey(route: DocumentedRoute): boolean {
  return route.idempotent;
}

/** A write to an existing resource marked so: it takes `If-Match`. */
function isConditionalWrite(route: DocumentedRoute): boolean {
  return route.spec.versioned === 'if-match' && route.method !== 'get' && route.method !== 'head';
}

function headerParameters(route: DocumentedRoute): ParameterObject[] {
  const names = [...(takesIdempotencyKey(route) ? ['Idempotency-Key'] : []), ...(isConditionalWrite(route) ? ['If-Match'] : []), ...(route.spec.headers ?? [])];
  return [...new Set(names)].map((name) => {
    const known = KNOWN_HEADERS[name];
    return {
      name,
      in: 'header',
      required: false,
      description: known?.description ?? `The ${name} header.`,
      schema: known?.schema ?? { type: 'string' },
    };
  });
}

/** Lifts a property's description onto the parameter, where OpenAPI viewers show it. */
function withDescription(parameter: ParameterObject): ParameterObject {
  const description = parameter.schema.description;
  return typeof description === 'string' ? { ...parameter, description } : parameter;
}

function objectSchema(
  schema: z.ZodType,
  components: SchemaComponents,
  what: string,
): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = components.resolve(components.convert(schema, 'input'));
  if (json.type !== 'object' || !json.properties) throw new Error(`${what} must be a zod object schema`);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(json.properties)) {
    properties[name] = typeof property === 'boolean' ? {} : property;
  }
  return { properties, required: json.required ?? [] };
}

function successResponses(spec: ApiOperationSpec, components: SchemaComponents): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    if (Number(status) < 100 || Number(status) >= 400) throw new Error(`responses holds success answers only, not ${status}`);
    if (response.schema) checkExample(response.schema, response.example, `the example of ${status}`);
    const out: ResponseObject = { description: response.description, headers: spec.versioned !== undefined ? { ...REQUEST_ID_HEADER, ...ETAG_HEADER } : REQUEST_ID_HEADER };
    if (response.schema || response.example !== undefined) {
      const media: MediaTypeObject = {};
      if (response.schema) media.schema = components.convert(response.schema, 'output');
      if (response.example !== undefined) media.example = response.example;
      out.content = { [response.contentType ?? JSON_TYPE]: media };
    }
    responses[status] = out;
  }
  return responses;
}

/** The codes a route can answer with: from what it takes, its auth, its path and `errors`. */
export function errorCodesOf(route: DocumentedRoute): string[] {
  const { spec } = route;
  const codes: string[] = [];
  if (spec.body) codes.push('VALIDATION_FAILED', 'INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  else if (spec.query || spec.params) codes.push('VALIDATION_FAILED');
  if (!route.isPublic) codes.push('UNAUTHORIZED');
  if (!route.isPublic && route.scope) codes.push('INSUFFICIENT_SCOPE');
  if (route.path.includes('{')) codes.push('NOT_FOUND');
  if (takesIdempotencyKey(route)) codes.push('VALIDATION_FAILED', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  if (isConditionalWrite(route)) codes.push('VALIDATION_FAILED', 'PRECONDITION_FAILED');
  codes.push(...(spec.errors ?? []), 'RATE_LIMITED', 'INTERNAL');
  // Any write can find the server's storage full (or read-only).
  if (route.method !== 'get' && route.method !== 'head') codes.push(...STORAGE_CODES);
  return [...new Set(codes)];
}

const STORAGE_CODES = ['STORAGE_FULL', 'STORAGE_READ_ONLY', 'STORAGE_CORRUPT'];
/** Codes whose answers carry Retry-After. */
const RETRY_AFTER_CODES = new Set(['RATE_LIMITED', 'STORAGE_FULL', 'STORAGE_READ_ONLY']);

function errorResponses(route: DocumentedRoute): Record<string, ResponseObject> {
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodesOf(route)) {
    const { status } = errorCodeSpec(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, codes] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    const examples: Record<string, ExampleObject | RefObject> = {};
    for (const code of codes) examples[code] = errorExample(code, route);
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${errorCodeSpec(code).when}`).join('; '),
      headers: codes.some((code) => RETRY_AFTER_CODES.has(code)) ? { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER } : REQUEST_ID_HEADER,
      content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/Error' }, examples } },
    };
  }
  return responses;
}

/** The shared example, except for INSUFFICIENT_SCOPE, which names this route's own scope. */
function errorExample(code: string, route: DocumentedRoute): ExampleObject | RefObject {
  if (code === 'INSUFFICIENT_SCOPE' && route.scope) {
    return {
      summary: `the key lacks ${route.scope}`,
      value: {
        code,
        message: `This API key lacks the required scope: ${route.scope}`,
        details: { requiredScope: route.scope },
      },
    };
  }
  return { $ref: `#/components/examples/${code}` };
}

function checkExample(schema: z.ZodType, example: unknown, what: string): void {
  if (example === undefined) return;
  const result = schema.safeParse(example);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${what} does not match its schema at "${issue.path.join('.')}": ${issue.message}`);
  }
}
