// WORKER_MODE=process|background: `npm start` runs the workers (all of them, or the background
// ones) in a child process it supervises. Read-your-writes stays exact across the two processes (a
// write answers once the read models hold it, wherever they are applied), the worker's process
// managers still act, a worker that dies is started again, and stopping the API stops both. The
// worker logs JSON lines like the API, there and when started on its own. With `background` the
// worker runs below the API's CPU priority, and a restart's first writes never wait for it.
import { getPriority } from 'node:os';
import { join } from 'node:path';

import { CommerceClient } from '@app/client';

import { createWorkspace, removeDir, type RunningApp, startApp, startWorker } from './support/app-process';
import { until } from './support/http';

const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' };
/** Preloaded into the API, it makes every worker process it starts exit at once. */
const REFUSE_WORKER = join(__dirname, 'support', 'refuse-worker.cjs');
/** The nice steps between the API and its background worker (apps/api/src/worker-supervisor.ts). */
const BACKGROUND_WORKER_NICE = 10;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const workerPids = (output: string) => [...output.matchAll(/worker process started \(pid (\d+)/g)].map((m) => Number(m[1]));

interface LogEntry {
  level: number;
  time: number;
  pid: number;
  hostname: string;
  msg: string;
  context?: string;
}

/** The API's own plain lines: its address, and its supervisor's notes on the worker. */
const API_PLAIN_LINE = /^(Collectibles Commerce API listening on |worker process (started|exited))/;

function parseEntry(line: string): LogEntry | null {
  try {
    const entry: unknown = JSON.parse(line);
    return typeof entry === 'object' && entry !== null && 'level' in entry && 'msg' in entry ? (entry as LogEntry) : null;
  } catch {
    return null;
  }
}

/** Every line of `output` but `except` as a log entry; the lines that are not one, apart. */
function logLines(output: string, except?: RegExp): { entries: LogEntry[]; others: string[] } {
  const lines = output.split('\n').filter((line) => line.trim() !== '' && !except?.test(line));
  const parsed = lines.map((line) => ({ line, entry: parseEntry(line) }));
  return { entries: parsed.flatMap((p) => (p.entry ? [p.entry] : [])), others: parsed.filter((p) => !p.entry).map((p) => p.line) };
}

const ENTRY_SHAPE = { level: expect.any(Number), time: expect.any(Number), pid: expect.any(Number), hostname: expect.any(String), msg: expect.any(String) };

describe.each(['process', 'background'])('WORKER_MODE=%s: workers in their own process (e2e)', (mode) => {
  let app: RunningApp;
  let api: CommerceClient;

  beforeAll(async () => {
    app = await startApp({ env: { WORKER_MODE: mode, LOG_LEVEL: 'info' } });
    api = new CommerceClient({ apiKey: (await createWorkspace(app.dataDir, 'split')).apiKey, baseUrl: app.url, maxRetries: 0 });
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('starts one worker process beside the API, with its share of the work', () => {
    const pids = workerPids(app.output());
    expect(pids).toHaveLength(1);
    expect(alive(pids[0])).toBe(true);
    expect(pids[0]).not.toBe(app.child.pid);
    expect(app.output()).toContain(mode === 'process' ? 'every worker' : 'background work');
    if (mode === 'background') expect(app.output()).toMatch(/projections running \(read-your-writes lane\)[\s\S]*projections running \(eventual lane\)|projections running \(eventual lane\)[\s\S]*projections running \(read-your-writes lane\)/);
  });

  it('the worker logs JSON lines shaped like the API\'s, without colours', () => {
    const [worker] = workerPids(app.output());
    expect(app.output()).not.toContain('\u001b');
    const { entries, others } = logLines(app.output(), API_PLAIN_LINE);
    expect(others).toEqual([]);
    for (const entry of entries) expect(entry).toEqual(expect.objectContaining(ENTRY_SHAPE));
    const fromWorker = entries.filter((e) => e.pid === worker);
    expect(fromWorker).toContainEqual(expect.objectContaining({ level: 30, context: 'platform', msg: expect.stringMatching(/^projections running/) }));
    expect(fromWorker).toContainEqual(expect.objectContaining({ level: 30, msg: expect.stringMatching(/^worker running projections: /) }));
    // The API's lines have the same fields.
    expect(entries.find((e) => e.pid === app.child.pid)).toEqual(expect.objectContaining(ENTRY_SHAPE));
  });

  it(
    mode === 'background'
      ? "runs the worker below the API's CPU priority (it does what no request waits for)"
      : "runs the worker at the API's CPU priority (every write waits for it)",
    () => {
      const [worker] = workerPids(app.output());
      const apiNice = getPriority(app.child.pid);
      expect(getPriority(worker)).toBe(mode === 'background' ? Math.min(19, apiNice + BACKGROUND_WORKER_NICE) : apiNice);
    },
  );

  it('every write is readable as soon as it is answered (read-your-writes across the processes)', async () => {
    for (let i = 0; i < 40; i += 1) {
      const created = await api.buyerRequests.create({ ...charizard, maxPrice: 100 + i });
      const read = await api.buyerRequests.retrieve(created.id);
      expect(read.maxPrice).toBe(100 + i);
    }
    const all = await api.buyerRequests.list({ limit: 100 });
    expect(all.data).toHaveLength(40);
  });

  it('the instant match counts the worker-built inventory, and the worker matches in reverse', async () => {
    const item = await api.inventory.create({ ...charizard, price: 120, quantity: 1 });
    const wants = await api.buyerRequests.create({ ...charizard, maxPrice: 130 });
    expect(wants.matchCount).toBe(1);
    expect(item.id).toMatch(/^inv_/);
    // Reverse matching (a process manager in the worker) records matches for the requests that were waiting.
    await until('the waiting requests matched', async () => {
      const matched = await api.buyerRequests.list({ status: 'matched', limit: 100 });
      return matched.data.length >= 2 ? matched : undefined;
    });
  });

  it('the analytics (eventual lane) answer with every write made before the read', async () => {
    const summary = await api.tradeGraph.summary({ groupBy: 'card' });
    const charizardCluster = summary.clusters.find((c) => c.card === 'Charizard');
    expect(charizardCluster?.created).toBe(41);
  });

  it('a worker that dies is started again, and writes still read back', async () => {
    const [first] = workerPids(app.output());
    process.kill(first, 'SIGKILL');
    await until('a new worker process', async () => (workerPids(app.output()).length === 2 ? true : undefined), 10_000);
    expect(app.output()).toMatch(/worker process exited \(SIGKILL\); starting it again/);
    const again = workerPids(app.output())[1];
    const apiNice = getPriority(app.child.pid);
    expect(getPriority(again)).toBe(mode === 'background' ? Math.min(19, apiNice + BACKGROUND_WORKER_NICE) : apiNice);
    const created = await api.buyerRequests.create({ ...charizard, maxPrice: 99 });
    expect((await api.buyerRequests.retrieve(created.id)).maxPrice).toBe(99);
  });

  it('stopping the API stops its worker', async () => {
    const pids = workerPids(app.output());
    await app.stop();
    expect(app.child.exitCode).toBe(0);
    await until('the worker gone', async () => (alive(pids[pids.length - 1]) ? undefined : true), 10_000);
  });
});

describe('WORKER_MODE=background: the first writes after a restart (e2e)', () => {
  it('are answered by the API alone, read back at once, even when its worker process cannot start', async () => {
    const before = await startApp({ env: { WORKER_MODE: 'background' } });
    const { apiKey } = await createWorkspace(before.dataDir, 'restarted');
    const seed = new CommerceClient({ apiKey, baseUrl: before.url, maxRetries: 0 });
    for (let i = 0; i < 5; i += 1) await seed.buyerRequests.create({ ...charizard, maxPrice: 100 + i });
    await seed.inventory.create({ ...charizard, price: 90 });
    await before.stop();

    const app = await startApp({ dataDir: before.dataDir, env: { WORKER_MODE: 'background' }, nodeArgs: ['--require', REFUSE_WORKER], waitForWorker: false });
    try {
      const api = new CommerceClient({ apiKey, baseUrl: app.url, maxRetries: 0 });
      for (let i = 0; i < 5; i += 1) {
        const created = await api.buyerRequests.create({ ...charizard, maxPrice: 100 + i });
        expect(created.matchCount).toBe(1);
        expect((await api.buyerRequests.retrieve(created.id)).maxPrice).toBe(100 + i);
      }
      expect((await api.buyerRequests.list({ limit: 100 })).data).toHaveLength(10);
      // No worker ever ran, and not one write waited for read models out of its reach (the API
      // warns when read-your-writes gives up waiting). The worker's refusal reaches the output when
      // its process gets that far, which on a busy machine can be after the writes above.
      await until('the worker process to refuse to start', async () => (app.output().includes('worker process refused to start (test hook)') ? true : undefined), 60_000);
      expect(app.output()).not.toContain('worker running projections');
      expect(app.output()).not.toContain('did not reach position');
    } finally {
      await app.stop();
      removeDir(app.dataDir);
    }
  }, 120_000);
});

describe('a worker process started on its own (e2e)', () => {
  it.each(['debug', 'warn'])('logs JSON lines at LOG_LEVEL=%s, without colours, and only what the level lets through', async (level) => {
    const worker = await startWorker({ env: { LOG_LEVEL: level } });
    await worker.stop();
    removeDir(worker.dataDir);
    const output = worker.output();
    expect(output).not.toContain('\u001b');
    const { entries, others } = logLines(output);
    expect(others).toEqual([]);
    for (const entry of entries) expect(entry).toEqual(expect.objectContaining({ ...ENTRY_SHAPE, pid: worker.child.pid }));
    // The one line it prints whatever the level, once it runs (what a supervisor waits for).
    const ready = expect.objectContaining({ level: 30, msg: expect.stringMatching(/^worker running projections: /) });
    expect(entries).toContainEqual(ready);
    if (level === 'debug') expect(entries).toContainEqual(expect.objectContaining({ level: 30, context: 'platform', msg: expect.stringMatching(/^projections running: /) }));
    else expect(entries.filter((e) => e.level < 40 && !e.msg.startsWith('worker running projections'))).toEqual([]);
  });
});
