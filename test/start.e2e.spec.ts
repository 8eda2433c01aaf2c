// What `npm start` prints: one line with the URL, then (LOG_FORMAT=pretty, a person at a terminal)
// only warnings and errors, or (json, for machines) JSON lines beside it; and a port already in use
// is one plain line and exit 1, no stack trace.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

import { removeDir, runToExit, type RunningApp, startApp, tempDataDir } from './support/app-process';
import { http, until } from './support/http';

const ROOT = join(__dirname, '..');
const START_LINE = /^Collectibles Commerce API listening on http:\/\/127\.0\.0\.1:\d+ \(data in \/\S+\)$/;

const linesOf = (output: string) => output.split('\n').filter((line) => line.trim() !== '');

/** The environment without npm's own variables (a test run by `npm test` has them). */
function withoutNpm(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

describe('npm start: LOG_FORMAT=pretty (e2e)', () => {
  let app: RunningApp;

  afterEach(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('prints the start line alone: no JSON, no route mapping, nothing for requests that go well', async () => {
    app = await startApp({ env: { LOG_FORMAT: 'pretty', LOG_LEVEL: '' } });
    expect((await http(app.url, 'GET', '/api/v1/health')).status).toBe(200);
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests')).status).toBe(401);
    await app.stop();
    expect(linesOf(app.output())).toEqual([expect.stringMatching(START_LINE)]);
  });

  it('with LOG_LEVEL=info, adds one short line per request', async () => {
    app = await startApp({ env: { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' } });
    await http(app.url, 'GET', '/api/v1/health');
    await until('the request line', async () => (/GET \/api\/v1\/health 200 \d+ ms/.test(app.output()) ? true : undefined));
    const lines = linesOf(app.output());
    expect(lines.filter((line) => START_LINE.test(line))).toHaveLength(1);
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}GET \/api\/v1\/health 200 \d+ ms$/));
    expect(lines.filter((line) => line.startsWith('{') || /Mapped \{|RouterExplorer|InstanceLoader/.test(line))).toEqual([]);
  });
});

describe('npm start: LOG_FORMAT=json (e2e)', () => {
  it('prints JSON lines for machines (Nest and Fastify included) beside the one plain start line', async () => {
    const app = await startApp({ env: { LOG_FORMAT: 'json', LOG_LEVEL: '' } });
    try {
      await http(app.url, 'GET', '/api/v1/health');
      await until('the request entry', async () => (app.output().includes('"request completed"') ? true : undefined));
    } finally {
      await app.stop();
      removeDir(app.dataDir);
    }
    const lines = linesOf(app.output());
    const plain = lines.filter((line) => !line.startsWith('{'));
    expect(plain).toEqual([expect.stringMatching(START_LINE)]);
    const entries = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string; context?: string });
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, context: 'RouterExplorer', msg: expect.stringMatching(/^Mapped \{/) }));
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, msg: 'request completed' }));
  });
});

describe('npm start: a port already in use (e2e)', () => {
  let server: Server;
  let port: number;
  const dataDir = tempDataDir();

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    removeDir(dataDir);
  });

  const refusal = () => `port ${port} is already in use — is another server running? Set PORT to use another port.\n`;

  it.each(['json', 'pretty'])('is one plain line on stderr and exit 1 (LOG_FORMAT=%s)', async (format) => {
    const result = await runToExit('api', { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_FORMAT: format, LOG_LEVEL: '' });
    expect(result).toEqual({ code: 1, stdout: '', stderr: refusal() });
  });

  it('is the same through `npm start`, with a worker process beside the API too', async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'npm',
        ['start'],
        { cwd: ROOT, env: { ...withoutNpm(process.env), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WORKER_MODE: 'process', LOG_LEVEL: 'warn' }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(refusal());
    // npm's banner, and the supervisor's note on the worker it started (and stopped).
    expect(linesOf(result.stdout).filter((line) => !line.startsWith('> ') && !line.startsWith('worker process started'))).toEqual([]);
  });
});
