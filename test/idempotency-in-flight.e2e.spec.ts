// Idempotency-Key on POST /api/v1/buyer-requests against the real app while the first request is
// still in flight: retries on the same and on another server process sharing the DATA_DIR.
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp, tempDataDir } from './support/app-process';
import type { HttpResult } from './support/http';
import { charizard, type Created, type ErrorBody, expectErrorShape, listIdsAt, postTo, replayed } from './support/idempotency';

/**
 * Two servers on one DATA_DIR where nobody runs the projections, and where a test hook holds every
 * append that creates a buyer request for a known time: the request stays in flight that long.
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
    const slow = { RUN_WORKERS: 'false', TEST_SLOW_APPEND_MS: String(IN_FLIGHT_MS) };
    const nodeArgs = ['--require', join(__dirname, 'support', 'slow-appends.cjs')];
    [waiting, impatient] = await Promise.all([
      startApp({ dataDir, env: slow, nodeArgs }),
      startApp({ dataDir, env: { ...slow, IDEMPOTENCY_WAIT_MS: '0' }, nodeArgs }),
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
