// What `npm run bench` measures against: a workspace + key made with the real CLI, the baseline and
// the app on their own temp DATA_DIRs, a smoke write + read on each, the same N seed rows in both,
// and the app without auth + rate limiting, started only for its own scenario.
import { expectJson, problems, UNLIMITED_RATE_LIMITS as UNLIMITED } from '../lib/common.mjs';
import { tempDir } from '../lib/resources.mjs';

import { bodyMaker } from './bodies.mjs';
import { API_MAIN, BASELINE_MAIN, log, NO_AUTH_PRELOAD, settings } from './config.mjs';
import { cannon, loadOptions } from './load.mjs';
import { runCli, startServer } from './servers.mjs';

/** Both servers up, with the targets the scenarios load (`appNoAuth` joins them on demand). */
export async function startServers() {
  // Workspace + key first (the CLI applies its own projections), then both servers.
  const appDir = tempDir('bench-app-');
  const baselineDir = tempDir('bench-baseline-');
  const created = JSON.parse(await runCli(appDir, ['workspace', 'create', '--name', 'Bench', '--slug', 'bench']));
  const apiKey = created.apiKey;
  if (!apiKey) throw new Error(`CLI gave no apiKey: ${JSON.stringify(created)}`);
  const workspaceId = created.workspace?.id;

  const appArgs = [...settings.appNodeOptions.split(/\s+/).filter(Boolean), API_MAIN];
  const [baseline, app] = await Promise.all([
    startServer('baseline', [BASELINE_MAIN], { DATA_DIR: baselineDir }),
    startServer('app', appArgs, { DATA_DIR: appDir, ...UNLIMITED }),
  ]);
  log(`baseline ${baseline.url}, app ${app.url}`);

  const targets = {
    baseline: { url: baseline.url, path: '/baseline/buyer-requests', headers: {} },
    app: { url: app.url, path: '/api/v1/buyer-requests', headers: { authorization: `Bearer ${apiKey}` } },
  };
  const servers = { baseline, app };
  return { appDir, created, workspaceId, appArgs, baseline, app, targets, servers };
}

/** Smoke: one write and one read on each, with the shapes the benchmark relies on. */
export async function smoke(targets, cards) {
  const smokeBody = bodyMaker(cards, 1)();
  for (const [name, t] of Object.entries(targets)) {
    const created1 = await expectJson(
      `${t.url}${t.path}`,
      { method: 'POST', headers: { ...t.headers, 'content-type': 'application/json' }, body: smokeBody },
      201,
    );
    if (typeof created1.id !== 'string' || created1.matchCount !== 0) {
      throw new Error(`${name}: unexpected POST answer ${JSON.stringify(created1)}`);
    }
    const page = await expectJson(`${t.url}${t.path}?limit=${settings.listLimit}`, { headers: t.headers }, 200);
    if (!Array.isArray(page.data) || page.data[0]?.id !== created1.id) {
      throw new Error(`${name}: the write is not the newest row of the list (read-your-writes): ${JSON.stringify(page).slice(0, 300)}`);
    }
  }
}

/** Seeds both with the same N rows (same body sequence), through their APIs; returns the rows each took. */
export async function seed(targets, cards) {
  const seeded = {};
  for (const [name, t] of Object.entries(targets)) {
    if (settings.seedRows === 0) break;
    const result = await cannon({
      ...loadOptions(t, 'post', bodyMaker(cards, 42)),
      connections: settings.connections,
      amount: settings.seedRows,
    });
    const bad = problems(result);
    if (bad) throw new Error(`seeding ${name}: ${bad}`);
    seeded[name] = { rows: result['2xx'] };
    log(`seeded ${name}: ${result['2xx']} rows`);
  }
  for (const [name, t] of Object.entries(targets)) {
    const page = await expectJson(`${t.url}${t.path}?limit=${settings.listLimit}`, { headers: t.headers }, 200);
    const expected = Math.min(settings.listLimit, settings.seedRows + 1);
    if (page.data.length !== expected || (settings.seedRows + 1 > settings.listLimit) !== (page.nextCursor !== null)) {
      throw new Error(`${name}: after seeding, list gave ${page.data.length} rows, nextCursor ${page.nextCursor}`);
    }
  }
  return seeded;
}

// The same build without auth + rate limiting, on the app's DATA_DIR (same rows, same workspace),
// up only for its own scenario so it never competes with the other runs.
export async function startNoAuth({ appDir, created, workspaceId, appArgs, targets, servers }) {
  if (!workspaceId) throw new Error(`CLI gave no workspace id: ${JSON.stringify(created)}`);
  const proc = await startServer('app-noauth', ['--import', NO_AUTH_PRELOAD, ...appArgs], {
    DATA_DIR: appDir,
    ...UNLIMITED,
    BENCH_WORKSPACE_ID: workspaceId,
  });
  servers.appNoAuth = proc;
  targets.appNoAuth = { ...targets.app, url: proc.url };
  const url = (t) => `${t.url}${t.path}?limit=${settings.listLimit}`;
  const [withAuth, without] = await Promise.all([
    expectJson(url(targets.app), { headers: targets.app.headers }, 200),
    expectJson(url(targets.appNoAuth), { headers: targets.app.headers }, 200),
  ]);
  if (JSON.stringify(without) !== JSON.stringify(withAuth)) throw new Error('app-noauth does not answer what the app answers');
  const unauthenticated = await fetch(url(targets.appNoAuth));
  if (unauthenticated.status !== 200) throw new Error(`app-noauth still checks keys (${unauthenticated.status})`);
  log(`app-noauth ${proc.url}`);
}
