// Idempotency-Key on POST /api/v1/buyer-requests against the real app: replays without a second
// effect, retries while the first request is in flight (in one process and across two), key
// reuse, stored validation answers, per-workspace keys, bad keys, and keys that outlive a restart.
// And on POST /api/v1/api-keys, whose answer holds a secret: replayed, yet never stored in clear.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp, tempDataDir } from './support/app-process';
import { http, type HttpResult } from './support/http';

interface ErrorBody {
  code: string;
  message: string;
  details?: { issues?: Array<{ path: string; message: string }> };
}
interface Created {
  id: string;
  matchCount: number;
}

const PATH = '/api/v1/buyer-requests';
const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450.5 };

const postTo = <T = Created>(url: string, key: string, body: unknown, idempotencyKey?: string) =>
  http<T>(url, 'POST', PATH, { key, body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });

async function listIdsAt(url: string, key: string): Promise<string[]> {
  const res = await http<{ data: Array<{ id: string }> }>(url, 'GET', `${PATH}?limit=100`, { key });
  expect(res.status).toBe(200);
  return res.body.data.map((d) => d.id);
}

const replayed = (res: HttpResult): boolean => res.headers.get('idempotent-replayed') === 'true';

function expectErrorShape(res: HttpResult<ErrorBody>, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(['code', 'details', 'message']).toEqual(expect.arrayContaining(Object.keys(res.body)));
}

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

describe('idempotency keys on an answer holding a secret (e2e, POST /api/v1/api-keys)', () => {
  let app: RunningApp;
  let admin: string;

  interface CreatedKey {
    id: string;
    secret: string;
  }
  const createKey = (name: string, idempotencyKey: string) =>
    http<CreatedKey>(app.url, 'POST', '/api/v1/api-keys', { key: admin, body: { name }, headers: { 'idempotency-key': idempotencyKey } });

  /** The bytes of an embedded database: the file and, when present, its write-ahead log. */
  const databaseBytes = (name: string): Buffer =>
    Buffer.concat(
      [name, `${name}-wal`].map((file) => join(app.dataDir, file)).filter((file) => existsSync(file)).map((file) => readFileSync(file)),
    );

  beforeAll(async () => {
    app = await startApp();
    admin = (await createWorkspace(app.dataDir, 'idem-secret')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('replays the same secret for a retry, and no database file holds it in clear', async () => {
    const first = await createKey('ci', 'new-key-1');
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^sk_/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const retry = await createKey('ci', 'new-key-1');
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.body.secret).toBe(first.body.secret);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // One key was made, and it works.
    const list = await http<{ data: Array<{ name: string }> }>(app.url, 'GET', '/api/v1/api-keys?limit=100', { key: admin });
    expect(list.body.data.filter((k) => k.name === 'ci')).toHaveLength(1);
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: first.body.secret })).status).toBe(200);

    // The secret's random part (its prefix names the key id, which is stored on purpose).
    const randomPart = first.body.secret.slice(first.body.secret.indexOf('_', 'sk_'.length) + 1);
    expect(randomPart.length).toBeGreaterThanOrEqual(20);
    for (const db of ['read.db', 'events.db']) {
      const bytes = databaseBytes(db);
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(Buffer.from(first.body.secret))).toBe(false);
      expect(bytes.includes(Buffer.from(randomPart))).toBe(false);
    }
  });

  it('generated its sealing key into DATA_DIR/secrets.key, readable by its owner only', () => {
    const file = join(app.dataDir, 'secrets.key');
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('still replays after a restart (same key file), and answers 409 IDEMPOTENCY_REPLAY_UNAVAILABLE once the key changed', async () => {
    const first = await createKey('restart', 'new-key-2');
    await app.stop();
    app = await startApp({ dataDir: app.dataDir });
    const replayedAfterRestart = await createKey('restart', 'new-key-2');
    expect(replayedAfterRestart.text).toBe(first.text);
    expect(replayedAfterRestart.headers.get('idempotent-replayed')).toBe('true');

    await app.stop();
    app = await startApp({ dataDir: app.dataDir, env: { SECRETS_KEY: 'ab'.repeat(32) } });
    const lost = await createKey('restart', 'new-key-2');
    expectErrorShape(lost as unknown as HttpResult<ErrorBody>, 409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE');
    expect(lost.text).not.toContain(first.body.secret);
    const list = await http<{ data: Array<{ name: string }> }>(app.url, 'GET', '/api/v1/api-keys?limit=100', { key: admin });
    expect(list.body.data.filter((k) => k.name === 'restart')).toHaveLength(1);
  });
});

/**
 * Two servers on one DATA_DIR where nobody runs the projections: every write then waits the whole
 * READ_YOUR_WRITES_TIMEOUT_MS before answering, so a request stays in flight for a known time.
 */
describe('idempotency keys while the first request is in flight (e2e, two processes)', () => {
  const IN_FLIGHT_MS = 1500;
  let dataDir: string;
  let waiting: RunningApp; // default IDEMPOTENCY_WAIT_MS: waits for the first request, then replays
  let impatient: RunningApp; // IDEMPOTENCY_WAIT_MS=0: answers 409 at once
  let key: string;
  let slugs = 0;

  /** Projects the log (the CLI catches every projection up) and lists what it holds. */
  const created = async (): Promise<string[]> => {
    expect((await cli(dataDir, ['projections', 'rebuild', '--all'])).code).toBe(0);
    return listIdsAt(waiting.url, key);
  };

  beforeAll(async () => {
    dataDir = tempDataDir();
    const slow = { RUN_WORKERS: 'false', READ_YOUR_WRITES_TIMEOUT_MS: String(IN_FLIGHT_MS) };
    [waiting, impatient] = await Promise.all([
      startApp({ dataDir, env: slow }),
      startApp({ dataDir, env: { ...slow, IDEMPOTENCY_WAIT_MS: '0' } }),
    ]);
  });

  beforeEach(async () => {
    key = (await createWorkspace(dataDir, `in-flight-${(slugs += 1)}`)).apiKey;
  });

  afterAll(async () => {
    await Promise.all([waiting.stop(), impatient.stop()]);
    removeDir(dataDir);
  });

  it('a retry waits for the original (even on another server) and replays it; with no wait allowed it gets 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const first = postTo(impatient.url, key, charizard, 'slow-1');
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_MS / 5));
    const [busy, waited] = await Promise.all([
      postTo<ErrorBody>(impatient.url, key, charizard, 'slow-1'),
      postTo(waiting.url, key, charizard, 'slow-1'),
    ]);
    expectErrorShape(busy, 409, 'IDEMPOTENCY_KEY_IN_USE');
    expect(busy.headers.get('retry-after')).toBe('1');
    const original = await first;
    expect(original.status).toBe(201);
    expect(replayed(original)).toBe(false);
    expect(waited.text).toBe(original.text);
    expect(replayed(waited)).toBe(true);
    // Once the original is done, the impatient server replays too.
    const later = await postTo(impatient.url, key, charizard, 'slow-1');
    expect(later.text).toBe(original.text);
    expect(replayed(later)).toBe(true);
    expect(await created()).toEqual([original.body.id]);
  });

  it('concurrent identical requests on two servers have one effect: each answer is the original or 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postTo<Created | ErrorBody>(i % 2 ? impatient.url : waiting.url, key, charizard, 'burst')),
    );
    const ids = await created();
    expect(ids).toHaveLength(1);
    expect(answers.filter((a) => a.status === 201 && !replayed(a))).toHaveLength(1);
    expect(answers.filter((a) => a.status === 201 && replayed(a)).length).toBeGreaterThan(0);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.body).toEqual({ id: ids[0], matchCount: 0 });
      else expectErrorShape(answer as HttpResult<ErrorBody>, 409, 'IDEMPOTENCY_KEY_IN_USE');
    }
  });
});
