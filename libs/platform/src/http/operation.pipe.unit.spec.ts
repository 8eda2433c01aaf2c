import 'reflect-metadata';

import type { ArgumentMetadata } from '@nestjs/common';
import { PIPES_METADATA } from '@nestjs/common/constants';
import { z } from 'zod';

import { API_OPERATION, ApiOperation, type ApiOperationSpec } from '../openapi/api-operation';
import { ApiError } from './api-error';
import { OperationPipe } from './operation.pipe';
import { ZodPipe } from './zod.pipe';

const body = z.strictObject({ name: z.string().trim().min(1), tags: z.array(z.string()).optional() });
const query = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });
const params = z.object({ id: z.string().min(1).max(8) });

const spec: ApiOperationSpec = { operationId: 'probe', summary: 'Probe', tags: ['Probe'], body, query, params, responses: { 200: { description: 'ok' } } };
const pipe = new OperationPipe(spec);
const as = (type: ArgumentMetadata['type'], data?: string): ArgumentMetadata => ({ type, data, metatype: Object });

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** What a client sees of an ApiError. */
function answer(error: unknown): unknown {
  if (!(error instanceof ApiError)) throw error;
  return { status: error.status, code: error.code, message: error.message, details: error.details };
}

describe('OperationPipe', () => {
  it('validates each request part with its schema and hands over the parsed value', () => {
    expect(pipe.transform({ name: '  Pikachu ' }, as('body'))).toEqual({ name: 'Pikachu' });
    expect(pipe.transform({}, as('query'))).toEqual({ limit: 20 });
    expect(pipe.transform({ limit: '5' }, as('query'))).toEqual({ limit: 5 });
    expect(pipe.transform({ id: 'br_1' }, as('param'))).toEqual({ id: 'br_1' });
  });

  it.each([
    ['body', 'body', body, { name: '' }, 'Invalid body field "name": Too small: expected string to have >=1 characters'],
    ['body', 'body', body, { name: 'x', extra: 1, tags: 'no' }, 'Invalid body field "tags": Invalid input: expected array, received string'],
    ['body', 'body', body, 'text', 'Invalid body: Invalid input: expected object, received string'],
    ['body', 'body', body, undefined, 'A JSON request body is required'],
    ['query', 'query', query, { limit: '0' }, 'Invalid query field "limit": Too small: expected number to be >=1'],
    ['param', 'path', params, { id: 'far-too-long' }, 'Invalid path field "id": Too big: expected string to have <=8 characters'],
  ] as const)('answers a bad %s exactly as ZodPipe does (%#)', (type, part, schema, value, message) => {
    const got = answer(thrown(() => pipe.transform(value, as(type))));
    expect(got).toEqual(answer(thrown(() => new ZodPipe(schema, part).transform(value))));
    expect(got).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message });
  });

  it('lists every issue, as ZodPipe does', () => {
    expect(answer(thrown(() => pipe.transform({ name: '', extra: 1 }, as('body'))))).toMatchObject({
      details: {
        issues: [
          { path: 'name', message: 'Too small: expected string to have >=1 characters' },
          { path: '', message: 'Unrecognized key: "extra"' },
        ],
      },
    });
    expect(answer(thrown(() => pipe.transform(undefined, as('body'))))).toMatchObject({ details: { issues: [{ path: '', message: 'body is required' }] } });
  });

  it('passes what custom decorators read (@Auth(), …) through untouched', () => {
    const auth = { workspaceId: 'ws_1', keyId: 'key_1', name: '' };
    expect(pipe.transform(auth, as('custom'))).toBe(auth);
    expect(pipe.transform(undefined, as('custom'))).toBeUndefined();
  });

  it('takes an absent body as {} when every body field is optional (the schema accepts {}), and validates it', () => {
    const optional = new OperationPipe({ ...spec, body: body.partial() });
    expect(optional.transform(undefined, as('body'))).toEqual({});
    expect(answer(thrown(() => optional.transform({ name: '' }, as('body'))))).toMatchObject({ message: expect.stringMatching(/^Invalid body field "name"/) });
    // A body with a required field stays required.
    expect(answer(thrown(() => pipe.transform(undefined, as('body'))))).toMatchObject({ message: 'A JSON request body is required' });
  });

  it('refuses, as a programming error, a part the spec has no schema for or a single field', () => {
    const bare = new OperationPipe({ operationId: 'bare', summary: 'Bare', tags: ['Probe'], responses: { 200: { description: 'ok' } } });
    for (const type of ['body', 'query', 'param'] as const) {
      const error = thrown(() => bare.transform({}, as(type)));
      expect(error).not.toBeInstanceOf(ApiError);
      expect(String(error)).toMatch(/^Error: bare: the route reads @(Body|Query|Param)\(\) but its @ApiOperation has no `(body|query|params)` schema$/);
    }
    expect(String(thrown(() => pipe.transform('br_1', as('param', 'id'))))).toContain("@Param('id') reads one field");
  });
});

describe('@ApiOperation', () => {
  it('documents the route and validates it with the same spec', () => {
    class Probe {
      @ApiOperation(spec)
      handle(): void {}
    }
    const handler = Object.getOwnPropertyDescriptor(Probe.prototype, 'handle')?.value as object;
    expect(Reflect.getMetadata(API_OPERATION, handler)).toBe(spec);
    const pipes = Reflect.getMetadata(PIPES_METADATA, handler) as unknown[];
    expect(pipes).toHaveLength(1);
    expect(pipes[0]).toBeInstanceOf(OperationPipe);
    expect(answer(thrown(() => (pipes[0] as OperationPipe).transform({ id: '' }, as('param'))))).toMatchObject({
      message: 'Invalid path field "id": Too small: expected string to have >=1 characters',
    });
  });
});
