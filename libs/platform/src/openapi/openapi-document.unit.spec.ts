import { z } from 'zod';

import type { ApiOperationSpec } from './api-operation';
import { buildOpenApiDocument, type DocumentedRoute, errorCodesOf } from './openapi-document';
import { openApiPath } from './route-catalog';

const thing = z.strictObject({ id: z.string(), name: z.string(), at: z.iso.datetime() }).meta({ id: 'UnitThing' });
const createThing = z.strictObject({ name: z.string().min(1) });
const thingExample = { id: 'th_1', name: 'a', at: '2025-01-01T00:00:00.000Z' };

function route(overrides: Partial<Omit<DocumentedRoute, 'spec'>> & { spec?: Partial<ApiOperationSpec> } = {}): DocumentedRoute {
  const { spec, ...rest } = overrides;
  return {
    method: 'get',
    path: '/api/v1/things/{id}',
    scope: 'read:requests',
    isPublic: false,
    idempotent: false,
    ...rest,
    spec: {
      operationId: 'getThing',
      summary: 'Read a thing',
      tags: ['Things'],
      params: z.object({ id: z.string().meta({ description: 'Thing id.' }) }),
      responses: { 200: { description: 'The thing', schema: thing, example: thingExample } },
      ...spec,
    },
  };
}

describe('buildOpenApiDocument', () => {
  it('states scope, security, parameters, named schemas and the route’s error answers', () => {
    const document = buildOpenApiDocument([route()]);
    const op = document.paths['/api/v1/things/{id}']?.get;
    expect(op).toMatchObject({
      operationId: 'getThing',
      'x-required-scope': 'read:requests',
      security: [{ bearerAuth: ['read:requests'] }],
      parameters: [{ name: 'id', in: 'path', required: true, description: 'Thing id.' }],
    });
    expect(op?.description).toContain('`read:requests`');
    expect(op?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/UnitThing' });
    expect(document.components.schemas.UnitThing).toMatchObject({ type: 'object', required: ['id', 'name', 'at'] });
    // date-time keeps its format without zod's long pattern
    expect(JSON.stringify(document.components.schemas.UnitThing)).not.toContain('pattern');
    expect(Object.keys(op?.responses ?? {})).toEqual(['200', '400', '401', '403', '404', '429', '500']);
    expect(op?.responses['403']?.content?.['application/json']?.examples?.INSUFFICIENT_SCOPE).toMatchObject({
      value: { details: { requiredScope: 'read:requests' } },
    });
  });

  it('makes public operations security-free, without 401/403', () => {
    const document = buildOpenApiDocument([route({ isPublic: true, scope: undefined, path: '/api/v1/ping', spec: { params: undefined } })]);
    const op = document.paths['/api/v1/ping']?.get;
    expect(op?.security).toEqual([]);
    expect(op?.['x-required-scope']).toBeUndefined();
    expect(Object.keys(op?.responses ?? {})).toEqual(['200', '429', '500']);
  });

  it('documents bodies with their example, and the Idempotency-Key of authenticated POSTs', () => {
    const post = route({
      method: 'post',
      path: '/api/v1/things',
      scope: 'write:requests',
      idempotent: true,
      spec: { operationId: 'createThing', params: undefined, body: createThing, bodyExample: { name: 'a' }, responses: { 201: { description: 'Created' } } },
    });
    const op = buildOpenApiDocument([post]).paths['/api/v1/things']?.post;
    expect(op?.requestBody?.content['application/json']).toMatchObject({ example: { name: 'a' }, schema: { type: 'object' } });
    expect(op?.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['header:Idempotency-Key']);
    expect(errorCodesOf(post)).toEqual(
      expect.arrayContaining(['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'IDEMPOTENCY_KEY_REUSED']),
    );
  });

  it('gives every write 503 STORAGE_FULL / STORAGE_READ_ONLY / STORAGE_CORRUPT with Retry-After, and reads none', () => {
    const post = route({ method: 'post', path: '/api/v1/things', spec: { operationId: 'createThing', params: undefined, body: createThing, bodyExample: { name: 'a' } } });
    const document = buildOpenApiDocument([route(), post]);
    const created = document.paths['/api/v1/things']?.post?.responses['503'];
    expect(Object.keys(created?.content?.['application/json']?.examples ?? {})).toEqual(['STORAGE_FULL', 'STORAGE_READ_ONLY', 'STORAGE_CORRUPT']);
    expect(Object.keys(created?.headers ?? {})).toEqual(['X-Request-Id', 'Retry-After']);
    expect(document.paths['/api/v1/things/{id}']?.get?.responses['503']).toBeUndefined();
  });

  it.each<[string, DocumentedRoute[], RegExp]>([
    ['an example its schema rejects', [route({ spec: { responses: { 200: { description: 'x', schema: thing, example: { id: 1 } } } } })], /example of 200/],
    ['a body example its schema rejects', [route({ method: 'post', spec: { body: createThing, bodyExample: { name: '' } } })], /bodyExample/],
    ['an unknown error code', [route({ spec: { errors: ['TEAPOT'] } })], /TEAPOT/],
    ['a params name the path lacks', [route({ spec: { params: z.object({ other: z.string() }) } })], /other/],
    ['an operationId used twice', [route(), route({ path: '/api/v1/other/{id}' })], /used twice/],
    ['two shapes under one name', [route(), route({ path: '/x/{id}', spec: { operationId: 'x', responses: { 200: { description: 'x', schema: z.object({ y: z.string() }).meta({ id: 'UnitThing' }) } } } })], /named "UnitThing"/],
  ])('refuses %s, naming the operation', (_what, routes, message) => {
    expect(() => buildOpenApiDocument(routes)).toThrow(message);
  });
});

describe('openApiPath', () => {
  it.each([
    ['api/v1/things', '', '/api/v1/things'],
    ['api/v1/things', ':id', '/api/v1/things/{id}'],
    ['/api/v1/things/', '/:id/items/:itemId', '/api/v1/things/{id}/items/{itemId}'],
    ['/', 'docs', '/docs'],
  ])('%s + %s → %s', (base, sub, expected) => {
    expect(openApiPath(base, sub)).toBe(expected);
  });
});
