// The client as a user gets it: built as `npm run client:build` builds it, `npm pack`ed, the tarball
// installed offline into an empty temporary project, and programs that import the package by its
// name — an ES module (the README's first call) and a CommonJS one (the `./webhooks` entry) —
// type-checked by the repository's tsc (strict, nodenext resolution, no path to the repository's
// sources) and run with node against the real app. The tarball holds only dist/, package.json and
// README.md, has no dependencies, and nothing in it imports anything but its own files (and
// node:crypto, in the node-only `./webhooks` entry); the declarations of both entries type-check
// alone, with `types: []` and the DOM library under bundler resolution: no server code and no
// Node types are reachable from the published `.d.ts`.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

import { CLIENT_VERSION } from '@app/client';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const CLIENT = join(ROOT, 'libs/client');
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const NAME = '@collectibles-commerce/client';

// The README's first call (README.md, "Client"), verbatim: an ES module with top-level await.
const FIRST_CALL = `import { CommerceClient, NotFoundError } from '@collectibles-commerce/client';

const api = new CommerceClient({ apiKey: process.env.API_KEY, baseUrl: process.env.API_URL ?? 'http://localhost:3000' });

const created = await api.buyerRequests.create({ cardName: 'Charizard', setName: 'Base Set', condition: 'NM', maxPrice: 350 });
console.log('created', created.id, 'with', created.matchCount, 'matches');

for await (const request of api.buyerRequests.list({ status: 'open' })) {
  console.log('open', request.id, request.cardName, request.maxPrice);
}

try {
  await api.buyerRequests.retrieve('br_01J0000000000000000000000');
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log('not found', error.status, error.code);
}
`;

// A CommonJS program on the node-only entry: a delivery signed as the server signs it, checked
// with node:crypto (`./webhooks`) and with WebCrypto (the main entry's `api.webhooks`).
const WEBHOOKS_CJS = `import { createHmac } from 'node:crypto';
import { CommerceClient, CLIENT_VERSION } from '@collectibles-commerce/client';
import { parseWebhookEvent, verifyWebhookSignature } from '@collectibles-commerce/client/webhooks';

const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
const body = JSON.stringify({ id: 'evt_1', type: 'trade.completed', created_at: new Date().toISOString(), workspace_id: 'ws_1', data: { trade_id: 'trd_1' } });
const header = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');

async function main(): Promise<void> {
  const api = new CommerceClient({ baseUrl: 'http://localhost:3000' });
  const event = parseWebhookEvent<{ trade_id: string }>(body);
  console.log(CLIENT_VERSION, verifyWebhookSignature(body, header, secret), await api.webhooks.verifySignature(body, header, secret), verifyWebhookSignature(body, header, secret + 'x'), event.data.trade_id);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

// Both entries' declarations, alone: no Node types, the DOM library, bundler resolution.
const STANDALONE = `import { CommerceClient, InvalidTransitionError, type Trade } from '@collectibles-commerce/client';
import { verifyWebhookSignature } from '@collectibles-commerce/client/webhooks';

const api = new CommerceClient({ apiKey: 'key', baseUrl: 'https://api.example.com' });
export const paid: Promise<string[]> = api.secureTrades.list({ status: 'paid' }).then((page) => page.data.map((trade: Trade) => trade.id));
export const refused = (error: unknown): readonly string[] | undefined => (error instanceof InvalidTransitionError ? error.allowed : undefined);
export const checked: boolean = verifyWebhookSignature('{}', 'sha256=00', 'whsec_x');
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The module specifiers a built file imports: `require("…")` in .js, `from '…'` / `import('…')` in .d.ts. */
function specifiersOf(text: string): string[] {
  const patterns = [/\brequire\(\s*["']([^"']+)["']\s*\)/g, /\bfrom\s+["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g, /^\s*import\s+["']([^"']+)["']/gm];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]));
}

interface Packed {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  filename: string;
  files: Array<{ path: string; size: number }>;
}

describe('the client package (e2e)', () => {
  let work: string;
  let project: string;
  let installed: string;
  let packed: Packed;
  let app: RunningApp;
  let apiKey: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cc-client-pack-'));
    const [started] = await Promise.all([
      startApp(),
      (async () => {
        // What `npm run client:build` does, into a staging copy of libs/client (its package.json and
        // README, the build as dist/), so that the test changes nothing in the work tree while other
        // suites read it; `npm pack` there packs what it would pack in libs/client.
        const staging = join(work, 'client');
        mkdirSync(staging);
        await run(process.execPath, [TSC, '-p', join(CLIENT, 'tsconfig.build.json'), '--outDir', join(staging, 'dist')], { cwd: ROOT, timeout: 60_000 });
        for (const file of ['package.json', 'README.md']) copyFileSync(join(CLIENT, file), join(staging, file));
        const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: staging, timeout: 60_000 });
        packed = (JSON.parse(stdout) as Packed[])[0];
        project = join(work, 'project');
        mkdirSync(project);
        writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'client-smoke', private: true, type: 'module' }));
        // Offline: the tarball has no dependencies, so nothing is fetched (and the registry is never asked).
        await run('npm', ['install', join(work, packed.filename), '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-update-notifier'], { cwd: project, timeout: 60_000 });
        installed = join(project, 'node_modules', NAME);
      })(),
    ]);
    app = started;
    apiKey = (await createWorkspace(app.dataDir, 'pack')).apiKey;
  }, 90_000);

  afterAll(async () => {
    await app?.stop();
    if (app) removeDir(app.dataDir);
    if (work) removeDir(work);
  });

  it('packs the built entries, package.json and README only: small, versioned as the client, without dependencies', () => {
    expect(packed).toMatchObject({ name: NAME, version: CLIENT_VERSION });
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths.filter((p) => !/^dist\/.+\.(js|d\.ts)$/.test(p))).toEqual(['README.md', 'package.json']);
    expect(paths).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/webhooks.js', 'dist/webhooks.d.ts']));
    expect(paths.filter((p) => p.includes('.spec.') || p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    // About 70 kB packed, 400 kB unpacked today (the generated route types are 240 kB of it).
    expect(packed.size).toBeLessThan(150_000);
    expect(packed.unpackedSize).toBeLessThan(1_000_000);

    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies']) expect(manifest[field]).toBeUndefined();
    expect(manifest).toMatchObject({ sideEffects: false, engines: { node: '>=20' } });
    // What the tarball lists is what was installed.
    expect(filesUnder(installed).map((f) => relative(installed, f)).sort()).toEqual(paths);
  });

  it('imports nothing but its own files (and node:crypto in the ./webhooks entry): no server code is reachable', () => {
    const outside: string[] = [];
    for (const file of filesUnder(join(installed, 'dist'))) {
      const text = readFileSync(file, 'utf8');
      const name = relative(installed, file);
      for (const spec of specifiersOf(text)) {
        const allowed = spec.startsWith('./') || spec.startsWith('../') || (spec === 'node:crypto' && name === 'dist/webhooks.js');
        if (!allowed) outside.push(`${name}: ${spec}`);
      }
      if (text.includes('@app/')) outside.push(`${name}: mentions @app/`);
      if (/["'](\.\.\/)*libs\//.test(text)) outside.push(`${name}: a path into libs/`);
    }
    expect(outside).toEqual([]);
  });

  it('type-checks the declarations of both entries alone: types: [], the DOM library, bundler resolution', async () => {
    writeFileSync(join(project, 'standalone.ts'), STANDALONE);
    const config = {
      compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: [], noEmit: true, skipLibCheck: false },
      files: ['standalone.ts'],
    };
    writeFileSync(join(project, 'tsconfig.standalone.json'), JSON.stringify(config));
    const { stdout } = await run(process.execPath, [TSC, '-p', 'tsconfig.standalone.json', '--listFiles'], { cwd: project, timeout: 60_000 }).catch((error: { stdout?: string }) => {
      throw new Error(`the declarations do not type-check alone:\n${error.stdout ?? String(error)}`);
    });
    const files = stdout.trim().split('\n');
    const libDir = join(ROOT, 'node_modules/typescript/lib');
    // Every file the compiler read: TypeScript's own libraries, the program, the package's declarations.
    expect(files.filter((f) => !f.startsWith(libDir) && f !== join(project, 'standalone.ts') && !f.startsWith(join(installed, 'dist/')))).toEqual([]);
    expect(files).toContain(join(installed, 'dist/index.d.ts'));
    expect(files).toContain(join(installed, 'dist/webhooks.d.ts'));
  }, 60_000);

  it('runs the README\'s first call (ESM) and a CommonJS webhooks program, type-checked by tsc, against the running server', async () => {
    writeFileSync(join(project, 'first-call.ts'), FIRST_CALL);
    writeFileSync(join(project, 'webhooks.cts'), WEBHOOKS_CJS);
    // Node's own types (for process, Buffer) from the repository's node_modules; nothing else of it.
    const config = {
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        outDir: 'out',
        skipLibCheck: false,
        noEmitOnError: true,
      },
      files: ['first-call.ts', 'webhooks.cts'],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(config));
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, timeout: 60_000 }).catch((error: { stdout?: string }) => {
      throw new Error(`the programs do not type-check:\n${error.stdout ?? String(error)}`);
    });

    const first = await run(process.execPath, [join(project, 'out/first-call.js')], { cwd: project, env: { ...process.env, API_KEY: apiKey, API_URL: app.url }, timeout: 30_000 });
    const lines = first.stdout.trim().split('\n');
    const id = /^created (br_\w+) with 0 matches$/.exec(lines[0])?.[1];
    expect(id).toBeDefined();
    expect(lines.slice(1)).toEqual([`open ${id} Charizard 350`, 'not found 404 NOT_FOUND']);

    const hooks = await run(process.execPath, [join(project, 'out/webhooks.cjs')], { cwd: project, timeout: 30_000 });
    expect(hooks.stdout.trim()).toBe(`${CLIENT_VERSION} true true false trd_1`);
  }, 60_000);
});
