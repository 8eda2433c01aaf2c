// The README's walkthrough, run exactly as printed: the app started as the README says (`npm start`,
// which builds and runs the compiled app), each command of the walkthrough run in one bash shell
// (so its variables and helpers carry on, as in a terminal), and what each printed compared, line
// by line, with the output the README shows under it — `…` standing for anything (ids, times).
//
// What differs from a newcomer's terminal, and why:
// - the project is a copy of this one (its sources, package.json, .npmrc, .swcrc; node_modules
//   linked), so `npm start`'s and `npm run cli`'s builds write the copy's dist/, never the dist/
//   the other suites run at the same time;
// - DATA_DIR is a fresh temporary directory, given in the environment (the README's ./data is the
//   default when none is given);
// - HOST=localhost keeps the server on loopback, where the default (0.0.0.0) would open it to the
//   network; the URLs it prints read the same (`http://localhost:3000`);
// - the port: the README says 3000. When 3000 is taken on the machine running the test, the test
//   runs on a free port instead and rewrites `localhost:3000` to it in the commands and in the
//   expected outputs alike (PORT is given to the server and the CLI);
// - npm's own `npm_*` variables of the test runner are left out of the shell's environment;
// - LOG_FORMAT=pretty: what `npm start` prints on a terminal (a pipe gets JSON lines, for
//   machines), so the test can hold it to the README's one start line.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';

import { until } from '@app/testing/support/http';
import { onPort, outputDifferences, printedLines, walkthroughScript, walkthroughUnits } from '@app/testing/support/walkthrough';

const ROOT = join(__dirname, '..');
const README_PORT = 3000;
/** What a fresh clone has that `npm start` and `npm run cli` need; tests, docs and benchmarks are not. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', 'test', 'bench', 'docs', 'coverage']);

/** Whether a port is free on loopback (for the README's 3000). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, 'localhost', () => server.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, 'localhost', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A copy of the project as a clone has it, without its build, its data or its tests; node_modules linked. */
function copyProject(to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(ROOT)) {
    if (SKIPPED.has(entry)) continue;
    cpSync(join(ROOT, entry), join(to, entry), {
      recursive: true,
      filter: (source) => !relative(ROOT, source).split(sep).some((part) => part === 'node_modules' || part === 'dist'),
    });
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(to, 'node_modules'), 'dir');
}

describe('the README walkthrough, run as printed (e2e)', () => {
  let work: string;
  let server: ChildProcess | undefined;
  let serverOutput = '';

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cc-readme-'));
  });

  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      // npm start runs the app as its child: the process group ends with it.
      process.kill(-server.pid, 'SIGTERM');
      const killed = setTimeout(() => server?.pid !== undefined && process.kill(-server.pid, 'SIGKILL'), 20_000);
      await exited;
      clearTimeout(killed);
    }
    rmSync(work, { recursive: true, force: true });
  }, 30_000);

  it('prints what the README says, step by step, from `npm start` on a fresh DATA_DIR', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const port = (await portIsFree(README_PORT)) ? README_PORT : await freePort();
    const units = port === README_PORT ? walkthroughUnits(readme) : onPort(walkthroughUnits(readme), README_PORT, port);
    expect(units.length).toBeGreaterThanOrEqual(10);

    const project = join(work, 'project');
    const dataDir = join(work, 'data');
    const outDir = join(work, 'out');
    mkdirSync(outDir);
    copyProject(project);
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
    Object.assign(env, { DATA_DIR: dataDir, PORT: String(port), HOST: 'localhost', LOG_FORMAT: 'pretty' });

    // Terminal 1, as the README says.
    server = spawn('npm', ['start'], { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    const started = server;
    await until(
      '`npm start` to answer on its health route',
      async () => {
        if (started.exitCode !== null) throw new Error(`npm start exited with ${started.exitCode}:\n${serverOutput}`);
        const res = await fetch(`http://localhost:${port}/api/v1/health`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      },
      180_000,
    );

    // Terminal 2: every block of the walkthrough, in one shell.
    const script = join(work, 'walkthrough.sh');
    writeFileSync(script, walkthroughScript(units, outDir));
    await promisify(execFile)('bash', [script], { cwd: project, env, timeout: 300_000 });

    const failures: string[] = [];
    units.forEach((unit, i) => {
      const printed = printedLines(readFileSync(join(outDir, `${i}.out`), 'utf8'));
      const status = Number(readFileSync(join(outDir, `${i}.rc`), 'utf8').trim());
      const differences = outputDifferences(unit.expected, printed);
      if (status !== 0) differences.unshift(`it exited with status ${status}`);
      if (differences.length > 0) {
        failures.push(
          `README line ${unit.line}:\n  ${unit.commands.join('\n  ')}\n${differences.map((d) => `- ${d}`).join('\n')}\n  (printed:\n    ${printed.join('\n    ')})`,
        );
      }
    });
    expect(failures).toEqual([]);

    // What `npm start` printed: npm's banner, a first build's two lines, then the README's start line
    // (naming this run's DATA_DIR) and nothing else — no warning, no error, no stack.
    const startLine = readme.match(/`(Collectibles Commerce API listening on http:\/\/localhost:3000) \(data in \.\/data\)`/);
    expect(startLine).not.toBeNull();
    const own = serverOutput
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('> ') && !/^(building first: |built in )/.test(line));
    expect(own).toEqual([`${startLine?.[1].replace(':3000', `:${port}`)} (data in ${dataDir})`]);

    // The sign-in link step 2 printed opens the portal, exactly as printed (the fragment stays in
    // the browser; test/portal-browser.e2e.spec.ts signs in with such a link in Chromium).
    const link = units
      .map((_, i) => readFileSync(join(outDir, `${i}.out`), 'utf8'))
      .join('\n')
      .match(/http:\/\/localhost:\d+\/portal\/#link=psl_\S+/)?.[0];
    expect(link).toBeDefined();
    expect(link).toContain(`//localhost:${port}/portal/`);
    const portal = await fetch(link as string);
    expect(portal.status).toBe(200);
    expect(portal.headers.get('content-type')).toMatch(/^text\/html/);
  }, 600_000);
});
