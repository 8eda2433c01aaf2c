import { ApiError } from '../http/api-error';
import { canonicalJson, idempotencyRecordId, readIdempotencyKey, requestFingerprint } from './idempotency-key';

const read = (value: string | undefined, rawHeaders?: string[]) =>
  readIdempotencyKey(value === undefined ? {} : { 'idempotency-key': value }, rawHeaders ?? (value === undefined ? [] : ['Idempotency-Key', value]));

describe('readIdempotencyKey', () => {
  it.each([
    ['a uuid', '3f1c2a9e-8b7d-4e5f-9a0b-1c2d3e4f5a6b'],
    ['one character', 'k'],
    ['255 characters', 'x'.repeat(255)],
    ['punctuation and inner spaces', 'order #42: retry ~1 {a=b}'],
  ])('accepts %s', (_label, key) => {
    expect(read(key)).toBe(key);
  });

  it('is undefined without the header', () => {
    expect(read(undefined)).toBeUndefined();
  });

  it.each([
    ['an empty value', ''],
    ['256 characters', 'x'.repeat(256)],
    ['a control character', 'a\tb'],
    ['a non-ASCII character', 'clé'],
    ['a leading space', ' key'],
  ])('rejects %s with 400 VALIDATION_FAILED naming the header', (_label, key) => {
    let thrown: unknown;
    try {
      read(key);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', details: { issues: [{ path: 'Idempotency-Key' }] } });
  });

  it('rejects the header sent twice (Node would join the values into another key)', () => {
    expect(() => read('a, b', ['Idempotency-Key', 'a', 'idempotency-key', 'b'])).toThrow(/once/);
  });
});

describe('idempotencyRecordId', () => {
  it('scopes a key to its workspace and does not store the key itself', () => {
    const a = idempotencyRecordId('ws_A', 'my-secret-key');
    expect(a).toMatch(/^ws_A:[0-9a-f]{64}$/);
    expect(a).not.toContain('my-secret-key');
    expect(idempotencyRecordId('ws_B', 'my-secret-key')).not.toBe(a);
    expect(idempotencyRecordId('ws_A', 'my-secret-key')).toBe(a);
    expect(idempotencyRecordId('ws_A', 'other-key')).not.toBe(a);
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }));
  });

  it('keeps "no body" apart from a null body', () => {
    expect(canonicalJson(undefined)).toBe('');
    expect(canonicalJson(null)).toBe('null');
  });
});

describe('requestFingerprint', () => {
  const base = requestFingerprint('POST', '/api/v1/buyer-requests', { cardName: 'Charizard', maxPrice: 450.5 });

  it('is the same for the same request, whatever the key order', () => {
    expect(requestFingerprint('post', '/api/v1/buyer-requests', { maxPrice: 450.5, cardName: 'Charizard' })).toBe(base);
  });

  it.each([
    ['the method', 'PUT', '/api/v1/buyer-requests', { cardName: 'Charizard', maxPrice: 450.5 }],
    ['the path', 'POST', '/api/v1/other', { cardName: 'Charizard', maxPrice: 450.5 }],
    ['the query string', 'POST', '/api/v1/buyer-requests?x=1', { cardName: 'Charizard', maxPrice: 450.5 }],
    ['a value', 'POST', '/api/v1/buyer-requests', { cardName: 'Charizard', maxPrice: 450.51 }],
    ['a value type', 'POST', '/api/v1/buyer-requests', { cardName: 'Charizard', maxPrice: '450.5' }],
    ['an extra field', 'POST', '/api/v1/buyer-requests', { cardName: 'Charizard', maxPrice: 450.5, source: 'x' }],
    ['no body', 'POST', '/api/v1/buyer-requests', undefined],
  ])('differs when %s differs', (_label, method, url, body) => {
    expect(requestFingerprint(method, url, body)).not.toBe(base);
  });
});

describe('deeply nested bodies', () => {
  // Fastify parses such bodies; a recursive walk would overflow the stack and answer 500.
  const nested = (depth: number, leaf: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`);

  it('canonicalizes and fingerprints JSON nested 100,000 deep', () => {
    expect(canonicalJson(nested(3, 1))).toBe('{"a":{"a":{"a":1}}}');
    const deep = requestFingerprint('POST', '/x', nested(100_000, 1));
    expect(deep).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint('POST', '/x', nested(100_000, 2))).not.toBe(deep);
    expect(requestFingerprint('POST', '/x', nested(100_000, 1))).toBe(deep);
  });
});
