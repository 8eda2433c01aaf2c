// Idempotency-Key on POST /api/v1/buyer-requests against the real app: replays without a second
// effect, key reuse, stored validation answers, per-workspace keys, bad keys, and keys that outlive a
// restart. In flight across two processes: idempotency-in-flight.e2e.spec.ts; on an answer holding a
// secret: idempotency-secrets.e2e.spec.ts.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { charizard, type Created, type ErrorBody, expectErrorShape, listIdsAt, postTo } from './support/idempotency';

describe('idempotency keys (e2e)', () => {
  let app: RunningApp;
  let slugs = 0;

  const post = <T = Created>(key: string, body: unknown, idempotencyKey?: string) => postTo<T>(app.url, key, body, idempotencyKey);
  const listIds = (key: string): Promise<string[]> => listIdsAt(app.url, key);
  /** A fresh workspace per test, so "exactly one created" counts only that test's requests. */
  const workspace = async (): Promise<string> => (await createWorkspace(app.dataDir, `idem-${(slugs += 1)}`)).apiKey;

  beforeAll(async () => {
    app = await startApp();
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('replays the same status, body and id for a retry, creating one buyer request', async () => {
    const key = await workspace();
    const first = await post(key, charizard, 'order-1');
    const retry = await post(key, { ...charizard }, 'order-1');
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.stringMatching(/^br_/), matchCount: 0 });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('original-request')).toBe(first.headers.get('x-request-id'));
    expect(await listIds(key)).toEqual([first.body.id]);
  });

  it('treats a body with the same fields in another order as the same request', async () => {
    const key = await workspace();
    const first = await post(key, charizard, 'reordered');
    const { maxPrice, condition, setName, cardName } = charizard;
    const retry = await post(key, { maxPrice, condition, setName, cardName }, 'reordered');
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await listIds(key)).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body, creating nothing more', async () => {
    const key = await workspace();
    const first = await post(key, charizard, 'reused');
    const reused = await post<ErrorBody>(key, { ...charizard, maxPrice: 451 }, 'reused');
    expectErrorShape(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(await listIds(key)).toEqual([first.body.id]);
  });

  it('stores a 400 validation answer like a success: replayed, and the key stays taken', async () => {
    const key = await workspace();
    const invalid = { ...charizard, maxPrice: -1 };
    const first = await post<ErrorBody>(key, invalid, 'invalid-once');
    expectErrorShape(first, 400, 'VALIDATION_FAILED');
    expect(first.body.details?.issues?.map((i) => i.path)).toEqual(['maxPrice']);
    const retry = await post<ErrorBody>(key, invalid, 'invalid-once');
    expect(retry.status).toBe(400);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // A corrected body is a different request: it needs a new key.
    expectErrorShape(await post<ErrorBody>(key, charizard, 'invalid-once'), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await listIds(key)).toEqual([]);
  });

  it('scopes keys per workspace: another workspace may use the same key', async () => {
    const [a, b] = [await workspace(), await workspace()];
    const inA = await post(a, charizard, 'shared-key');
    const inB = await post(b, { ...charizard, cardName: 'Blastoise' }, 'shared-key');
    expect(inB.status).toBe(201);
    expect(inB.headers.get('idempotent-replayed')).toBeNull();
    expect(inB.body.id).not.toBe(inA.body.id);
    expect(await listIds(a)).toEqual([inA.body.id]);
    expect(await listIds(b)).toEqual([inB.body.id]);
  });

  it.each([
    ['256 characters', 'k'.repeat(256)],
    ['a non-ASCII character', 'cl\u00e9'],
  ])('answers 400 VALIDATION_FAILED for a key of %s, creating nothing', async (_label, badKey) => {
    const key = await workspace();
    const res = await post<ErrorBody>(key, charizard, badKey);
    expectErrorShape(res, 400, 'VALIDATION_FAILED');
    expect(res.body.details?.issues?.[0]?.path).toBe('Idempotency-Key');
    expect(await listIds(key)).toEqual([]);
  });

  it('accepts a 255-character key', async () => {
    const key = await workspace();
    const longKey = 'k'.repeat(255);
    const first = await post(key, charizard, longKey);
    expect(first.status).toBe(201);
    expect((await post(key, charizard, longKey)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('without the header, behaves as before: every POST creates', async () => {
    const key = await workspace();
    const first = await post(key, charizard);
    const second = await post(key, charizard);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await listIds(key)).toHaveLength(2);
  });

  it('keeps keys across a restart', async () => {
    const key = await workspace();
    const first = await post(key, charizard, 'durable');
    await app.stop();
    app = await startApp({ dataDir: app.dataDir });
    const retry = await post(key, charizard, 'durable');
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await listIds(key)).toEqual([first.body.id]);
  });
});
