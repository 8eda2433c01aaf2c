// errorFromResponse on its own: the class and fields of each answer, the ones without the API's
// shape, Retry-After in both its forms, and `instanceof` and `name` of every class.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import ts from 'typescript';

import {
  ApiError,
  CommerceError,
  ConflictError,
  ConnectionError,
  errorFromResponse,
  IdempotencyError,
  InsufficientScopeError,
  InvalidTransitionError,
  NotFoundError,
  RateLimitedError,
  RequestAbortedError,
  retryAfterSeconds,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from './errors';

const headers = (init: Record<string, string> = {}) => new Headers({ 'x-request-id': 'req_1', ...init });

describe('errorFromResponse', () => {
  it('keeps status, code, message, details, request id and headers', () => {
    const h = headers();
    const error = errorFromResponse({ status: 404, body: { code: 'NOT_FOUND', message: 'No trade with id trd_1', details: { id: 'trd_1' } }, headers: h });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ name: 'NotFoundError', status: 404, code: 'NOT_FOUND', message: 'No trade with id trd_1', details: { id: 'trd_1' }, requestId: 'req_1', retryAfter: null });
    expect(error.headers).toBe(h);
  });

  it('reads the issues of a VALIDATION_FAILED, and none from a malformed list', () => {
    const issues = [{ path: 'quantity', message: 'must be an integer of at least 1' }];
    const error = errorFromResponse({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'Invalid trade', details: { issues } } });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual(issues);
    const bare = errorFromResponse({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'Invalid', details: { issues: 'nope' } } });
    expect((bare as ValidationError).issues).toEqual([]);
  });

  it('reads the scope of an INSUFFICIENT_SCOPE, alone or with the route\'s list', () => {
    const one = errorFromResponse({ status: 403, body: { code: 'INSUFFICIENT_SCOPE', message: 'm', details: { requiredScope: 'write:requests' } } });
    expect(one).toBeInstanceOf(InsufficientScopeError);
    expect(one).toMatchObject({ requiredScope: 'write:requests', requiredScopes: ['write:requests'] });
    const many = errorFromResponse({
      status: 403,
      body: { code: 'INSUFFICIENT_SCOPE', message: 'm', details: { requiredScope: 'write:trades', requiredScopes: ['read:trades', 'write:trades'] } },
    });
    expect(many).toMatchObject({ requiredScope: 'write:trades', requiredScopes: ['read:trades', 'write:trades'] });
    const none = errorFromResponse({ status: 403, body: { code: 'INSUFFICIENT_SCOPE', message: 'm' } });
    expect(none).toMatchObject({ requiredScope: undefined, requiredScopes: [] });
  });

  it('reads from, to and allowed of an INVALID_TRANSITION, and leaves them undefined when the route gives only a status', () => {
    const move = errorFromResponse({ status: 409, body: { code: 'INVALID_TRANSITION', message: 'm', details: { from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] } } });
    expect(move).toBeInstanceOf(InvalidTransitionError);
    expect(move).toBeInstanceOf(ConflictError);
    expect(move).toMatchObject({ from: 'initiated', to: 'shipped', allowed: ['paid', 'cancelled'] });
    const status = errorFromResponse({ status: 409, body: { code: 'INVALID_TRANSITION', message: 'Hold hld_1 is cancelled: cannot confirm', details: { status: 'cancelled' } } });
    expect(status).toMatchObject({ from: undefined, to: undefined, allowed: undefined, details: { status: 'cancelled' } });
  });

  it.each(['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_REPLAY_UNAVAILABLE'])('makes a 409 %s an IdempotencyError, not a ConflictError', (code) => {
    const error = errorFromResponse({ status: 409, body: { code, message: 'm' } });
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(error).not.toBeInstanceOf(ConflictError);
  });

  it('reads retry_after of a 429 into retryAfter', () => {
    const error = errorFromResponse({ status: 429, body: { code: 'RATE_LIMITED', message: 'm', details: { retry_after: 2 } }, headers: headers({ 'retry-after': '2' }) });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfter).toBe(2);
  });

  it.each([
    ['an HTML page', '<html>Bad Gateway</html>', 'HTTP 502 without an API error body: <html>Bad Gateway</html>'],
    ['nothing', undefined, 'HTTP 502 without an API error body'],
    ['JSON of another shape', { error: 'bad gateway' }, 'HTTP 502 without an API error body: {"error":"bad gateway"}'],
    ['a code without a message', { code: 'X' }, 'HTTP 502 without an API error body: {"code":"X"}'],
    ['an array', [1], 'HTTP 502 without an API error body: [1]'],
    ['null', null, 'HTTP 502 without an API error body: null'],
  ])('makes an ApiError HTTP_<status> of %s', (_case, body, message) => {
    const error = errorFromResponse({ status: 502, body, headers: headers() });
    expect(error.constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', message, details: undefined, requestId: 'req_1' });
  });

  it('cuts a long body in the message', () => {
    const error = errorFromResponse({ status: 500, body: 'x'.repeat(1000) });
    expect(error.message.length).toBeLessThan(300);
  });

  it.each([
    [401, UnauthorizedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitedError],
    [400, ApiError],
    [503, ApiError],
  ])('falls back on the class of the status %i for an unknown code', (status, Class) => {
    expect(errorFromResponse({ status, body: 'proxy says no' }).constructor).toBe(Class);
  });

  it('drops details that are not an object', () => {
    expect(errorFromResponse({ status: 409, body: { code: 'CONFLICT', message: 'm', details: ['x'] } }).details).toBeUndefined();
  });

  it('has no request id without the header', () => {
    expect(errorFromResponse({ status: 500, body: undefined }).requestId).toBeNull();
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-10-21T07:28:00Z');

  it.each([
    ['details.retry_after', { retry_after: 3 }, {}, 3],
    ['details.retry_after over the header', { retry_after: 3 }, { 'retry-after': '9' }, 3],
    ['Retry-After seconds', undefined, { 'retry-after': '7' }, 7],
    ['Retry-After fractional seconds', undefined, { 'retry-after': '0.5' }, 0.5],
    ['Retry-After as a date', undefined, { 'retry-after': 'Wed, 21 Oct 2026 07:28:12 GMT' }, 12],
    ['Retry-After as a past date', undefined, { 'retry-after': 'Wed, 21 Oct 2026 07:27:00 GMT' }, 0],
    ['nothing', undefined, {}, null],
    ['a garbled header', undefined, { 'retry-after': 'soon' }, null],
    ['a negative retry_after, then the header', { retry_after: -1 }, { 'retry-after': '4' }, 4],
    ['a retry_after that is not a number', { retry_after: '5' }, {}, null],
  ])('reads %s', (_case, details, header, expected) => {
    expect(retryAfterSeconds(details, new Headers(header), now)).toBe(expected);
  });
});

describe('the classes', () => {
  const init = { status: 400, code: 'X', message: 'm' };

  it.each([
    ['ApiError', new ApiError(init), [ApiError]],
    ['ValidationError', new ValidationError(init), [ApiError]],
    ['UnauthorizedError', new UnauthorizedError(init), [ApiError]],
    ['InsufficientScopeError', new InsufficientScopeError(init), [ApiError]],
    ['NotFoundError', new NotFoundError(init), [ApiError]],
    ['ConflictError', new ConflictError(init), [ApiError]],
    ['InvalidTransitionError', new InvalidTransitionError(init), [ConflictError, ApiError]],
    ['IdempotencyError', new IdempotencyError(init), [ApiError]],
    ['RateLimitedError', new RateLimitedError(init), [ApiError]],
    ['ConnectionError', new ConnectionError('refused'), []],
    ['TimeoutError', new TimeoutError(10), []],
    ['AbortError', new RequestAbortedError(undefined), []],
  ])('%s keeps its name and is an instance of its parents', (name, error, parents) => {
    expect(error.name).toBe(name);
    for (const Parent of [...parents, CommerceError, Error]) expect(error).toBeInstanceOf(Parent);
    expect(String(error)).toContain(name);
  });

  it('keeps instanceof and name in an ES5 build (TypeScript\'s down-levelled classes)', () => {
    // Without the prototype fix, `class X extends Error` compiled to ES5 makes plain Errors.
    const source = readFileSync(join(__dirname, 'errors.ts'), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES5, module: ts.ModuleKind.CommonJS, lib: ['es2015'] } });
    expect(outputText).not.toMatch(/class \w+ extends/);
    const es5: Record<string, unknown> = {};
    new Function('exports', outputText)(es5);
    const { errorFromResponse: map, InvalidTransitionError: Es5Transition, ConflictError: Es5Conflict, ApiError: Es5Api } = es5 as typeof import('./errors');
    const error = map({ status: 409, body: { code: 'INVALID_TRANSITION', message: 'm', details: { from: 'a', to: 'b', allowed: [] } } });
    expect(error).toBeInstanceOf(Es5Transition);
    expect(error).toBeInstanceOf(Es5Conflict);
    expect(error).toBeInstanceOf(Es5Api);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'InvalidTransitionError', from: 'a', to: 'b', status: 409 });
  });

  it('keeps the cause of a ConnectionError', () => {
    const cause = new TypeError('fetch failed');
    expect(new ConnectionError('no answer', { cause }).cause).toBe(cause);
  });
});
