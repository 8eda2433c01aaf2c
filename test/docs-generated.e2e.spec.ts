// The parts of docs/ generated from the code — the route list (docs/routes.md, from the OpenAPI
// document), the configuration table (docs/configuration.md, from the config schema) and the error
// table (docs/api.md, from the error catalogue) — must be what the code generates now. This fails
// while they differ (a route, a setting or an error code changed without `npm run docs`) and says
// which block and which command fixes it. Runs scripts/generate-docs.mjs against the built app.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const SCRIPT = join(ROOT, 'scripts/generate-docs.mjs');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function generateDocs(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...args], { cwd: ROOT, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}

describe('the generated docs (e2e)', () => {
  let copy: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'cc-docs-'));
    cpSync(join(ROOT, 'docs'), copy, { recursive: true, filter: (source) => !source.endsWith('.png') });
  });

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('are what the code generates now (else: run `npm run docs`)', async () => {
    const outcome = await generateDocs('--check');
    if (outcome.code !== 0) throw new Error(`stale generated docs:\n${outcome.stderr}`);
    expect(outcome.stdout).toContain('up to date');
  }, 150_000);

  it('are told apart from a changed line, naming the block and the command that fixes it, and are written back whole', async () => {
    const routes = join(copy, 'routes.md');
    const committed = readFileSync(routes, 'utf8');
    const edited = committed.replace('| GET | `/api/v1/health` |', '| GET | `/api/v1/healthz` |');
    expect(edited).not.toBe(committed);
    writeFileSync(routes, edited);
    const config = join(copy, 'configuration.md');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/\| `PORT` \| `3000` \|/, '| `PORT` | `8080` |'));

    const stale = await generateDocs('--check', '--docs', copy);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('routes.md: the generated block "routes" differs from what the code generates');
    expect(stale.stderr).toContain('committed: | GET | `/api/v1/healthz` |');
    expect(stale.stderr).toContain('configuration.md: the generated block "configuration" differs');
    expect(stale.stderr).toContain('run `npm run docs`');
    expect(stale.stderr).not.toContain('api.md');

    const written = await generateDocs('--docs', copy);
    expect(written.code).toBe(0);
    expect(readFileSync(routes, 'utf8')).toBe(committed);
    expect((await generateDocs('--check', '--docs', copy)).code).toBe(0);
  }, 300_000);

  it('refuses a page that lost its markers, saying which lines it needs', async () => {
    const api = join(copy, 'api.md');
    writeFileSync(api, readFileSync(api, 'utf8').replace(/<!-- END GENERATED errors -->\n/, ''));
    const outcome = await generateDocs('--check', '--docs', copy);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('has no generated block "errors": it needs the lines');
    expect(outcome.stderr).toContain('<!-- END GENERATED errors -->');
  }, 150_000);
});
