// The processes of the trading bench — the real app (and its workspace + key, made with the real
// CLI) and the bare-Fastify baseline, each on a temp DATA_DIR — started with the shared helpers of
// bench/scale/processes.mjs (they also give the app's inspector URL when profiling); checked JSON
// requests on the app; and a watch that fails fast when the app dies under a scenario.
import { join } from 'node:path';

import { expectJson, UNLIMITED_RATE_LIMITS } from '../lib/common.mjs';
import { tempDir } from '../lib/resources.mjs';
import { SqlWindow } from '../scale/instruments.mjs';
import { createWorkspace, startServer, stopServer } from '../scale/processes.mjs';

import { API_MAIN, BASELINE_MAIN, log, settings, SQL_TIMING_PRELOAD } from './config.mjs';

export async function startApp() {
  const dataDir = tempDir('bench-trading-app-');
  const ws = await createWorkspace(settings.appRoot, dataDir, 'trading');
  const sqlPrefix = settings.sqlTiming ? join(tempDir('bench-trading-sql-'), 'timing') : null;
  const args = [
    ...settings.appNodeOptions.split(/\s+/).filter(Boolean),
    ...(settings.profile ? ['--inspect=127.0.0.1:0'] : []),
    ...(sqlPrefix ? ['--import', SQL_TIMING_PRELOAD] : []),
    API_MAIN,
  ];
  const proc = await startServer('app', args, { DATA_DIR: dataDir, ...UNLIMITED_RATE_LIMITS, ...(sqlPrefix ? { SQLITE_TIMING_OUT: sqlPrefix } : {}) });
  proc.sql = sqlPrefix ? new SqlWindow(proc, sqlPrefix) : null;
  proc.dataDir = dataDir;
  proc.apiKey = ws.apiKey;
  proc.workspaceId = ws.id;
  proc.headers = { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
  watchExit(proc);
  log(`app ${proc.url} (DATA_DIR ${dataDir})`);
  return proc;
}

export async function startBaseline() {
  const proc = await startServer('baseline', [BASELINE_MAIN], { DATA_DIR: tempDir('bench-trading-baseline-') });
  watchExit(proc);
  log(`baseline ${proc.url}`);
  return proc;
}

export async function stopAll(...procs) {
  for (const p of procs) if (p) p.stopping = true;
  await Promise.all(procs.map((p) => stopServer(p)));
}

// A process that exits before we stop it makes every later request fail; say why at once (on this
// shared machine a process can be killed from outside: exit 0 / SIGTERM that this bench did not send).
function watchExit(proc) {
  proc.died = null;
  proc.exited.then(({ code, signal }) => {
    if (proc.stopping) return;
    proc.died = `${proc.name} exited (${code ?? signal}) during the run${code === 0 || signal === 'SIGTERM' ? ' — a SIGTERM this bench did not send' : ''}: ${proc.linesAfterReady.slice(-5).join(' | ').slice(0, 800)}`;
    log(proc.died);
  });
}

export function assertAlive(...procs) {
  for (const p of procs) if (p?.died) throw new Error(p.died);
}

/** A checked JSON request on the app: `path` under its URL, the bench's key, `status` expected. */
export function api(app, path, { method = 'GET', body, contentType, status = 200, timeoutMs } = {}) {
  const headers = { ...app.headers };
  if (contentType) headers['content-type'] = contentType;
  if (body === undefined) delete headers['content-type'];
  const init = { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) };
  return expectJson(`${app.url}${path}`, init, status, timeoutMs).catch((error) => {
    assertAlive(app);
    throw error;
  });
}
