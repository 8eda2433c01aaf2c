// `npm run cli` and `npm start` run dist/ at once when the build is current and build first only
// when an input changed (scripts/launch.cjs): shown on a small project of its own (real swc builds),
// and on this one, where a second CLI command runs without building. And the CLI's stdout through
// npm: the JSON alone with `npm run -s`, after npm's banner without it.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { removeDir, tempDataDir } from './support/app-process';
import { LAUNCHER_PATH, launcher } from './support/launcher';

const ROOT = join(__dirname, '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  // Without npm's own variables (`npm test` sets them): each run is as a person would start it.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: { ...env, ...options.env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the launcher on a project of its own (e2e)', () => {
  let root: string;
  const launch = (...args: string[]) => run(process.execPath, [join(root, 'scripts', 'launch.cjs'), ...args], { cwd: root });
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const mtime = (path: string) => statSync(join(root, path)).mtimeMs;
  /** Sets a file's time `seconds` after the stamp's (an edit after the last build began). */
  const touchAfterStamp = (path: string, seconds = 5) => {
    const at = new Date(mtime(launcher.STAMP) + seconds * 1000);
    utimesSync(join(root, path), at, at);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cc-launch-'));
    mkdirSync(join(root, 'scripts'));
    copyFileSync(LAUNCHER_PATH, join(root, 'scripts', 'launch.cjs'));
    copyFileSync(join(ROOT, '.swcrc'), join(root, '.swcrc'));
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(root, 'node_modules'));
    file('apps/cli/src/main.ts', "const answer: { args: string[] } = { args: process.argv.slice(2) };\nprocess.stdout.write(`${JSON.stringify(answer)}\\n`);\n");
    file('libs/web/src/page.css', 'body { margin: 0 }\n');
    file('libs/web/src/page.unit.spec.ts', "it('is left out of the build', () => undefined);\n");
    file('libs/catalog/data/cards.csv', 'id,name\n');
    // Every input well in the past: what the first build reads is older than its stamp.
    const past = new Date(Date.now() - 60_000);
    for (const input of launcher.buildInputs(root)) utimesSync(join(root, input.path), past, past);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('builds the first time, then runs the built entry with its arguments', async () => {
    const first = await launch('cli', 'workspace', 'create');
    expect(first.stderr).toMatch(/^building first: no finished build in dist\/ yet\nbuilt in [\d.]+ s\n$/);
    expect(first).toMatchObject({ code: 0, stdout: '{"args":["workspace","create"]}\n' });
    expect(existsSync(join(root, 'dist/libs/web/src/page.css'))).toBe(true);
    expect(existsSync(join(root, launcher.STAMP))).toBe(true);
  });

  it('runs at once the second time: no build, dist/ untouched', async () => {
    const before = { stamp: mtime(launcher.STAMP), main: mtime('dist/apps/cli/src/main.js') };
    const second = await launch('cli', 'projections', 'status');
    expect(second).toEqual({ code: 0, stdout: '{"args":["projections","status"]}\n', stderr: '' });
    expect({ stamp: mtime(launcher.STAMP), main: mtime('dist/apps/cli/src/main.js') }).toEqual(before);
  });

  it('ignores what the build leaves out: spec files, raw data', async () => {
    touchAfterStamp('libs/web/src/page.unit.spec.ts');
    touchAfterStamp('libs/catalog/data/cards.csv');
    expect((await launch('cli')).stderr).toBe('');
  });

  it('builds again when a source or a copied asset changed, or a file went away', async () => {
    file('apps/cli/src/main.ts', "process.stdout.write('{\"version\":2}\\n');\n");
    const edited = await launch('cli');
    expect(edited.stderr).toMatch(/^building first: apps\/cli\/src\/main\.ts changed since the last build\n/);
    expect(edited.stdout).toBe('{"version":2}\n');

    touchAfterStamp('libs/web/src/page.css');
    expect((await launch('cli')).stderr).toMatch(/^building first: libs\/web\/src\/page\.css changed since the last build\n/);

    rmSync(join(root, 'libs/web/src/page.css'));
    expect((await launch('cli')).stderr).toMatch(/^building first: libs\/web\/src\/ changed since the last build\n/);
    expect((await launch('cli')).stderr).toBe('');
  });

  it('leaves no stamp after a failed build, so the next run builds again', async () => {
    file('apps/cli/src/main.ts', 'const = ;\n');
    const failed = await launch('cli');
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('the build failed');
    expect(failed.stdout).toBe('');
    expect(existsSync(join(root, launcher.STAMP))).toBe(false);

    file('apps/cli/src/main.ts', "process.stdout.write('{\"fixed\":true}\\n');\n");
    const fixed = await launch('cli');
    expect(fixed.stderr).toMatch(/^building first: no finished build in dist\/ yet\n/);
    expect(fixed.stdout).toBe('{"fixed":true}\n');
  });

  it('builds always as `build` (npm run build), and writes the stamp', async () => {
    const stampBefore = mtime(launcher.STAMP);
    const built = await launch('build');
    expect(built.code).toBe(0);
    expect(mtime(launcher.STAMP)).toBeGreaterThan(stampBefore);
  });
});

describe('the CLI of this project through the launcher and npm (e2e)', () => {
  const dataDir = tempDataDir();

  afterAll(() => removeDir(dataDir));

  it('answers a second command from dist/ without building (the e2e setup built it)', async () => {
    expect(launcher.buildStaleness(ROOT)).toBeNull();
    const before = { stamp: statSync(join(ROOT, launcher.STAMP)).mtimeMs, main: statSync(join(ROOT, launcher.ENTRIES.cli)).mtimeMs };
    for (let i = 0; i < 2; i += 1) {
      const status = await run(process.execPath, [LAUNCHER_PATH, 'cli', 'projections', 'status'], { cwd: ROOT, env: { DATA_DIR: dataDir } });
      expect(status).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(status.stdout)).toEqual({ projections: expect.any(Array) });
    }
    expect({ stamp: statSync(join(ROOT, launcher.STAMP)).mtimeMs, main: statSync(join(ROOT, launcher.ENTRIES.cli)).mtimeMs }).toEqual(before);
  });

  it('`npm run -s cli -- …` prints the JSON alone on stdout (what to pipe into jq)', async () => {
    const status = await run('npm', ['run', '-s', 'cli', '--', 'projections', 'status'], { cwd: ROOT, env: { DATA_DIR: dataDir } });
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toEqual({ projections: expect.any(Array) });
  });

  it("`npm run cli -- …` shows npm's banner first on stdout, and says on stderr how to leave it out", async () => {
    const status = await run('npm', ['run', 'cli', '--', 'projections', 'status'], { cwd: ROOT, env: { DATA_DIR: dataDir } });
    expect(status.code).toBe(0);
    const [banner, json] = status.stdout.split(/\n\n(?=\{)/);
    expect(banner).toMatch(/^\n> collectibles-commerce-api@[\d.]+ cli\n> node scripts\/launch\.cjs cli projections status$/);
    expect(JSON.parse(json)).toEqual({ projections: expect.any(Array) });
    expect(status.stderr).toContain('`npm run -s cli -- …` prints the JSON alone');
  });

  it("leaves npm's own errors on: a registry out of reach is said, not exit 1 in silence (.npmrc)", async () => {
    // What `npm ci` met with an unreachable registry; `npm view` asks the registry the same way
    // without touching node_modules. Port 9 on 127.0.0.1: nothing listens there.
    const view = await run('npm', ['view', 'left-pad', '--registry=http://127.0.0.1:9/', '--fetch-retries=0'], { cwd: ROOT });
    expect(view.code).not.toBe(0);
    expect(view.stderr).toMatch(/^npm error code ECONNREFUSED$/m);
  });

  it('`npm run cli -- --help` prints the usage on stdout and exits 0', async () => {
    const help = await run('npm', ['run', '-s', 'cli', '--', '--help'], { cwd: ROOT, env: { DATA_DIR: dataDir } });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: npm run cli -- <command>\n/);
  });
});
