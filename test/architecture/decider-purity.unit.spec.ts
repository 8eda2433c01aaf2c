// Deciders and event contracts load alone: each built `*.decider.js` and `*.events.js`, required in a
// fresh Node process, must not bring NestJS, a database driver or the HTTP stack with it. The code
// is built here with the project's own swc settings into a temporary folder (not dist/, which the
// e2e tier builds at the same time).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '../..');
/** Packages a decider has no business loading. */
const FORBIDDEN = /node_modules\/(@nestjs|mongodb|@eventstore|fastify|@fastify|rxjs|reflect-metadata|rate-limiter-flexible|helmet)\//;

function builtFiles(dir: string, suffixes: readonly string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return builtFiles(path, suffixes);
    return suffixes.some((s) => name.endsWith(s)) ? [path] : [];
  });
}

/** The modules a fresh process has loaded after requiring `file` (node_modules paths, relative to the root). */
function modulesLoadedBy(file: string): string[] {
  const script = `require(${JSON.stringify(file)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  // The build lives outside the project: packages resolve from the project's node_modules.
  const env = { ...process.env, NODE_PATH: join(root, 'node_modules') };
  const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', env });
  return (JSON.parse(out) as string[]).map((p) => relative(root, p));
}

describe('deciders and event contracts load alone', () => {
  let out: string;
  let files: string[];

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'cc-purity-'));
    execFileSync(join(root, 'node_modules/.bin/swc'), ['libs', '-d', out, '--config-file', '.swcrc', '--quiet'], { cwd: root, stdio: 'inherit' });
    files = builtFiles(out, ['.decider.js', '.events.js']);
  }, 60_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('finds the deciders and event contracts of every context', () => {
    const names = files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort();
    expect(names).toEqual(
      expect.arrayContaining(['buyer-request.decider.js', 'inventory.decider.js', 'intake.decider.js', 'webhook.decider.js', 'delivery.decider.js', 'workspace.decider.js', 'api-key.decider.js']),
    );
    expect(names.length).toBeGreaterThanOrEqual(15);
  });

  it('each loads without NestJS, a database driver or the HTTP stack', () => {
    const offenders = files.flatMap((file) => {
      const forbidden = modulesLoadedBy(file).filter((m) => FORBIDDEN.test(m));
      return forbidden.length === 0 ? [] : [`${relative(out, file)} loads ${forbidden.length} forbidden modules, e.g. ${forbidden.slice(0, 3).join(', ')}`];
    });
    expect(offenders).toEqual([]);
  }, 60_000);
});
