// The sign-in link the CLI prints works as printed: the portal answers at /portal/ as at /portal,
// and the link names the server's real address — PUBLIC_BASE_URL when set, else the URL the
// running server listens on (a random port here), which it records in DATA_DIR while it runs;
// with no server running (stopped, or killed), http://localhost:$PORT. The widget's snippet and
// the unsubscribe links follow the same rule.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp, tempDataDir } from './support/app-process';
import { http } from './support/http';
import { signIn } from './support/portal';

const linkOf = async (dataDir: string, env: Record<string, string> = {}) => {
  const printed = await cli(dataDir, ['user', 'link', '--workspace', 'acme', '--email', 'owner@acme.example'], env);
  if (printed.code !== 0) throw new Error(printed.stderr);
  return printed.json<{ signInLink: string }>().signInLink;
};

describe('the printed sign-in link (e2e)', () => {
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'acme')).apiKey;
    const made = await cli(app.dataDir, ['user', 'create', '--workspace', 'acme', '--email', 'owner@acme.example']);
    expect(made.code).toBe(0);
  });

  afterAll(async () => {
    await app?.stop();
    if (app) removeDir(app.dataDir);
  });

  it('serves the portal at /portal/ as at /portal, its assets from either', async () => {
    const bare = await http(app.url, 'GET', '/portal');
    const slash = await http(app.url, 'GET', '/portal/');
    expect([bare.status, slash.status]).toEqual([200, 200]);
    expect(slash.text).toBe(bare.text);
    expect(slash.headers.get('content-security-policy')).toBe(bare.headers.get('content-security-policy'));
    // The page names its assets from the root: the same files whichever of the two it was loaded from.
    const assets = [...slash.text.matchAll(/(?:src|href)="(\/portal\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.sort()).toEqual(['/portal/assets/portal.css', '/portal/assets/portal.js']);
    for (const asset of assets) expect((await http(app.url, 'GET', asset)).status).toBe(200);
  });

  it('names the running server\'s own address (its random port), which the server recorded in DATA_DIR', async () => {
    const recorded = JSON.parse(readFileSync(join(app.dataDir, 'server-url.json'), 'utf8')) as { url: string; pid: number };
    expect(recorded).toEqual({ url: app.url, pid: app.child.pid });
    const link = await linkOf(app.dataDir);
    expect(link).toMatch(new RegExp(`^${app.url.replace(/[.]/g, '\\.')}/portal/#link=psl_[0-9A-Z]{26}_[\\w-]{43}$`));
    // What a browser does with it: GET the URL without its fragment, then the page signs in with the fragment's token.
    const url = new URL(link);
    expect((await http(url.origin, 'GET', url.pathname)).status).toBe(200);
    expect((await signIn(url.origin, { token: url.hash.slice('#link='.length) })).body.workspace.slug).toBe('acme');
  });

  it('names PUBLIC_BASE_URL when it is set', async () => {
    const link = await linkOf(app.dataDir, { PUBLIC_BASE_URL: 'https://portal.acme.example/' });
    expect(link).toMatch(/^https:\/\/portal\.acme\.example\/portal\/#link=psl_/);
  });

  it('refuses a PUBLIC_BASE_URL that is not an absolute http(s) origin, naming the variable', async () => {
    const bad = await cli(app.dataDir, ['user', 'link', '--workspace', 'acme', '--email', 'owner@acme.example'], { PUBLIC_BASE_URL: 'portal.acme.example' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('PUBLIC_BASE_URL: must be an absolute http(s) URL');
  });

  it('gives the widget snippet the same address', async () => {
    const settings = await http<{ scriptUrl: string; snippet: string }>(app.url, 'GET', '/api/v1/widget/settings', { key });
    expect(settings.body.scriptUrl).toBe(`${app.url}/widget.js`);
    expect(settings.body.snippet).toContain(`src="${app.url}/widget.js"`);
  });

  it('with the server stopped: http://localhost:$PORT (the server removed its record); killed: its record is ignored', async () => {
    const dataDir = tempDataDir();
    const apps: RunningApp[] = [];
    try {
      const other = await startApp({ dataDir });
      apps.push(other);
      await createWorkspace(dataDir, 'acme');
      expect((await cli(dataDir, ['user', 'create', '--workspace', 'acme', '--email', 'owner@acme.example'])).code).toBe(0);
      expect(await linkOf(dataDir)).toContain(`${other.url}/portal/#link=`);
      await other.stop();
      expect(existsSync(join(dataDir, 'server-url.json'))).toBe(false);
      expect(await linkOf(dataDir, { PORT: '4123' })).toMatch(/^http:\/\/localhost:4123\/portal\/#link=psl_/);
      expect(await linkOf(dataDir, { PORT: '' })).toMatch(/^http:\/\/localhost:3000\/portal\/#link=psl_/);

      // A server killed outright leaves its record behind: it names a process that is gone, and is ignored.
      const killed = await startApp({ dataDir });
      apps.push(killed);
      await killed.kill();
      expect(existsSync(join(dataDir, 'server-url.json'))).toBe(true);
      expect(await linkOf(dataDir, { PORT: '4123' })).toMatch(/^http:\/\/localhost:4123\/portal\/#link=psl_/);
    } finally {
      for (const each of apps) await each.stop();
      removeDir(dataDir);
    }
  }, 180_000);
});
