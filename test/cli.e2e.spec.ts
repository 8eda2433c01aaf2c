// The CLI against a running server on the same DATA_DIR: what it writes the server sees at once,
// and a rebuilt read model equals the live one.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { cli, removeDir, type RunningApp, startApp, tempDataDir } from './support/app-process';
import { http } from './support/http';

function snapshot(dataDir: string, table: string): unknown[] {
  const db = new DatabaseSync(join(dataDir, 'read.db'), { readOnly: true });
  try {
    return (db.prepare(`SELECT id, doc FROM "c_${table}" ORDER BY id`).all() as Array<{ id: string; doc: string }>).map(
      (r) => ({ id: r.id, doc: JSON.parse(r.doc) as unknown }),
    );
  } finally {
    db.close();
  }
}

describe('CLI (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp();
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('creates a workspace with a full-access key the running server accepts', async () => {
    const res = await cli(app.dataDir, ['workspace', 'create', '--name', 'Acme Cards', '--slug', 'acme']);
    expect(res.code).toBe(0);
    const body = res.json<{ workspace: { id: string; name: string; slug: string }; apiKey: string }>();
    expect(body).toEqual({
      workspace: { id: expect.stringMatching(/^ws_[0-9A-Z]{26}$/), name: 'Acme Cards', slug: 'acme' },
      apiKey: expect.stringMatching(/^sk_/),
    });
    const list = await http(app.url, 'GET', '/api/v1/buyer-requests', { key: body.apiKey });
    expect(list.status).toBe(200);
  });

  it('creates scoped keys, and blank scopes mean full access', async () => {
    const scoped = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'ci', '--scopes', 'read:requests,write:requests']);
    expect(scoped.code).toBe(0);
    expect(scoped.json()).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      name: 'ci',
      scopes: ['read:requests', 'write:requests'],
      secret: expect.stringMatching(/^sk_/),
    });
    const full = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'all']);
    expect(full.json<{ scopes: string[] }>().scopes).toEqual(['admin']);
    const blank = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'blank', '--scopes', '']);
    expect(blank.json<{ scopes: string[] }>().scopes).toEqual(['admin']);
  });

  it('refuses a taken slug, unknown scopes, unknown workspaces and bad usage with clear errors', async () => {
    const taken = await cli(app.dataDir, ['workspace', 'create', '--name', 'Again', '--slug', 'acme']);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stderr)).toMatchObject({ code: 'CONFLICT' });

    const badScope = await cli(app.dataDir, ['key', 'create', '--workspace', 'acme', '--name', 'x', '--scopes', 'read:everything']);
    expect(badScope.code).toBe(1);
    expect(JSON.parse(badScope.stderr)).toMatchObject({ code: 'VALIDATION_FAILED' });

    const noWorkspace = await cli(app.dataDir, ['key', 'create', '--workspace', 'nope', '--name', 'x']);
    expect(JSON.parse(noWorkspace.stderr)).toMatchObject({ code: 'NOT_FOUND' });

    const usage = await cli(app.dataDir, ['workspace', 'create', '--name', 'No slug']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--slug is required');
  });

  it('rebuilds every read model from the log, equal to the live one, while the server runs', async () => {
    const { apiKey } = (await cli(app.dataDir, ['workspace', 'create', '--name', 'Rebuild', '--slug', 'rebuild'])).json<{
      apiKey: string;
    }>();
    for (let i = 0; i < 25; i += 1) {
      const res = await http(app.url, 'POST', '/api/v1/buyer-requests', {
        key: apiKey,
        body: { cardName: `Pikachu ${i}`, setName: 'Jungle', condition: 'LP', maxPrice: 10 + i },
      });
      expect(res.status).toBe(201);
    }
    const tables = ['workspaces', 'api_keys', 'buyer_requests'];
    const before = tables.map((t) => snapshot(app.dataDir, t));
    expect(before[2]).toHaveLength(25);

    const rebuilt = await cli(app.dataDir, ['projections', 'rebuild', '--all']);
    expect(rebuilt.code).toBe(0);
    const names = rebuilt.json<{ rebuilt: string[] }>().rebuilt;
    expect(names).toEqual(expect.arrayContaining(tables));
    // One pass over the log for them all, counted and timed, and stderr says so (a bar and an ETA on a terminal).
    const runs = rebuilt.json<{ runs: Array<{ names: string[]; events: number; eventsPerSecond: number }> }>().runs;
    expect(runs).toHaveLength(1);
    expect(runs[0].names).toEqual(names);
    expect(runs[0].events).toBeGreaterThan(25);
    expect(rebuilt.stderr).toMatch(new RegExp(`^rebuild ${names.length} read models: [\\d,]+ events in [\\d.]+ s \\([\\d,]+ events/s\\)$`, 'm'));
    expect(tables.map((t) => snapshot(app.dataDir, t))).toEqual(before);

    const status = await cli(app.dataDir, ['projections', 'status']);
    const projections = status.json<{ projections: Array<{ name: string; position: number; head: number; lag: number }> }>().projections;
    expect(projections.map((p) => p.name).sort()).toEqual([...names].sort());
    for (const p of projections) {
      expect(p.lag).toBe(0);
      expect(p.position).toBe(p.head);
    }
  });

  it('stays exact when the server writes while the CLI rebuilds (two processes, one read model)', async () => {
    const { apiKey } = (await cli(app.dataDir, ['workspace', 'create', '--name', 'Busy', '--slug', 'busy'])).json<{
      apiKey: string;
    }>();
    const written: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i += 1) {
        const res = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
          key: apiKey,
          body: { cardName: `Mew ${i}`, setName: 'Promo', condition: 'NM', maxPrice: 5 },
        });
        expect(res.status).toBe(201);
        written.push(res.body.id);
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    const rebuilt = await cli(app.dataDir, ['projections', 'rebuild', 'buyer_requests']);
    writing = false;
    await writer;
    expect(rebuilt.code).toBe(0);
    expect(written.length).toBeGreaterThan(5);

    for (const id of written) {
      expect((await http(app.url, 'GET', `/api/v1/buyer-requests/${id}`, { key: apiKey })).status).toBe(200);
    }
    const live = snapshot(app.dataDir, 'buyer_requests');
    expect(await cli(app.dataDir, ['projections', 'rebuild', 'buyer_requests'])).toMatchObject({ code: 0 });
    expect(snapshot(app.dataDir, 'buyer_requests')).toEqual(live);
  });
});

describe('CLI usage (e2e)', () => {
  const dataDir = tempDataDir();

  afterAll(() => removeDir(dataDir));

  it.each([[[]], [['--help']], [['-h']], [['help']]])('prints the usage on stdout with exit 0 for %j', async (argv) => {
    const res = await cli(dataDir, argv);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toMatch(/^Usage: npm run cli -- <command>\n/);
    for (const command of ['workspace create', 'key create', 'projections status', 'trust audit', 'demo seed']) expect(res.stdout).toContain(`\n  ${command}`);
    expect(res.stdout).toContain('npm run -s cli -- …');
  });

  it("prints one command's usage for `<command> --help` and `help <command>`", async () => {
    for (const argv of [['workspace', 'create', '--help'], ['help', 'workspace', 'create']]) {
      const res = await cli(dataDir, argv);
      expect(res).toMatchObject({ code: 0, stderr: '' });
      expect(res.stdout).toMatch(/^Usage: npm run cli -- workspace create --name <name> --slug <slug>\n {6}Creates a workspace/);
      expect(res.stdout).not.toContain('key create');
    }
  });

  it('names an unknown command on stderr, with the usage, and exits 2', async () => {
    const unknown = await cli(dataDir, ['frobnicate', '--now']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^unknown command: "frobnicate"\n\nUsage: npm run cli -- <command>\n/);

    const wrongAction = await cli(dataDir, ['workspace', 'delete', '--slug', 'acme']);
    expect(wrongAction).toMatchObject({ code: 2, stdout: '' });
    expect(wrongAction.stderr.split('\n')[0]).toBe('unknown command: "workspace delete" (workspace commands: create, limits)');
  });

  it('names a missing, unknown or valueless flag, with the usage of its command, and exits 2', async () => {
    const missing = await cli(dataDir, ['key', 'create', '--name', 'ci']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^--workspace is required\n\nUsage: npm run cli -- key create --workspace <slug> --name <name>/);
    expect(missing.stderr).not.toContain('workspace limits');

    const unknownFlag = await cli(dataDir, ['workspace', 'create', '--nme', 'Acme', '--slug', 'acme']);
    expect(unknownFlag).toMatchObject({ code: 2, stdout: '' });
    expect(unknownFlag.stderr.split('\n')[0]).toContain("'--nme'");

    const noValue = await cli(dataDir, ['workspace', 'create', '--slug', 'acme', '--name']);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr.split('\n')[0]).toContain('--name');

    const badNumber = await cli(dataDir, ['demo', 'seed', '--workspace', 'acme', '--scale', 'lots']);
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr.split('\n')[0]).toMatch(/^--scale takes a whole number from 1 to \d+$/);
  });
});
