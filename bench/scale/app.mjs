// The app of a scale scenario: started on a seeded DATA_DIR (with the inspector or the SQL timing
// preload when asked), its start-up catch-up of the log followed and timed.
import { join } from 'node:path';

import { cpuSecondsOf, fmt, UNLIMITED_RATE_LIMITS as UNLIMITED } from '../lib/common.mjs';
import { children, tempDir } from '../lib/resources.mjs';

import { log, PM_NAME, settings, SQL_TIMING_PRELOAD } from './config.mjs';
import { LogWatch, waitCaughtUp } from './catch-up.mjs';
import { SqlWindow } from './instruments.mjs';
import { startServer } from './processes.mjs';
import { memoryOf } from './system.mjs';

function appArgs(appRoot, inspect) {
  return [
    ...(inspect ? ['--inspect=127.0.0.1:0'] : []),
    ...(settings.sqlTiming ? ['--import', SQL_TIMING_PRELOAD] : []),
    ...settings.appNodeOptions.split(/\s+/).filter(Boolean),
    join(appRoot, 'dist/apps/api/src/main.js'),
  ];
}

/** Starts the app on a seeded DATA_DIR and waits for its start-up catch-up; returns the app + timings. */
export async function startAndCatchUp(label, appRoot, dataDir, inspect) {
  const watch = new LogWatch(appRoot, dataDir);
  const before = watch.state();
  const events = before.head;
  const cpu0 = 0;
  const since = performance.now();
  // The app may not listen before its catch-up is done (measured: it does not): allow the whole limit.
  const sqlPrefix = settings.sqlTiming ? join(tempDir('scale-sql-'), 'timing') : null;
  // Progress while the app starts (it does not listen before it has caught up): every second.
  const track = { projectionsAt: null, pmAt: null, samples: [] };
  let pid = null;
  const tracker = setInterval(() => {
    const st = watch.state();
    const ms = Math.round(performance.now() - since);
    if (st.projectionsDone) track.projectionsAt ??= ms;
    else track.projectionsAt = null;
    if (st.pmDone) track.pmAt ??= ms;
    if (track.samples.length === 0 || ms - track.samples[track.samples.length - 1][0] >= 10_000) {
      track.samples.push([ms, st.minProjection, st.pm, st.head]);
      if (track.samples.length > 1) {
        log(`${label} catch-up: projections ${st.minProjection}/${st.head}, ${PM_NAME} ${st.pm}/${st.pmTarget}` + (pid ? `, app CPU ${fmt(cpuSecondsOf(pid), 0)} s` : ''));
      }
    }
  }, 1000);
  let app;
  try {
    const starting = startServer(
      `app-${label}`,
      appArgs(appRoot, inspect),
      { DATA_DIR: dataDir, ...UNLIMITED, ...(sqlPrefix ? { SQLITE_TIMING_OUT: sqlPrefix } : {}) },
      { startTimeoutMs: settings.catchUpTimeoutSeconds * 1000 },
    );
    pid = [...children].at(-1)?.pid ?? null;
    app = await starting;
  } finally {
    clearInterval(tracker);
  }
  app.sql = sqlPrefix ? new SqlWindow(app, sqlPrefix) : null;
  log(`${label}: app ${app.url} listening after ${fmt(app.listeningAfterMs / 1000, 1)} s; checking the catch-up of ${events} events …`);
  const timings = await waitCaughtUp(watch, {
    start: before,
    since,
    timeoutMs: settings.catchUpTimeoutSeconds * 1000,
    label: `${label} catch-up`,
    appRoot,
    dataDir,
    pid: app.child.pid,
  });
  const cpu = cpuSecondsOf(app.child.pid) - cpu0;
  // The tracker saw the catch-up end while the app was still starting (1 s resolution).
  if (track.projectionsAt !== null) timings.projectionsCaughtUpMs = Math.min(timings.projectionsCaughtUpMs, track.projectionsAt);
  if (track.pmAt !== null) timings.processManagerCaughtUpMs = Math.min(timings.processManagerCaughtUpMs, track.pmAt);
  const catchUp = {
    logEventsAtStart: events,
    listeningAfterMs: Math.round(app.listeningAfterMs),
    ...timings,
    progress: track.samples,
    progressFormat: '[ms since spawn, slowest projection position, reverse-matching checkpoint, head] every 10 s while starting',
    projectionEventsPerSecond: (timings.startHead - timings.startMinProjection) / (timings.projectionsCaughtUpMs / 1000),
    appCpuSecondsAtCatchUp: cpu,
    memory: memoryOf(app.child.pid),
    eventsAppendedByProcessManager: timings.head - events,
    method:
      'polled read.db from the bench process (read-only node:sqlite) every 1 s from the spawn: c_projection_checkpoints, ' +
      `every projection ≥ events.db head; c_process_manager_checkpoints "${PM_NAME}" ≥ the position of the last event of its types; ` +
      'then, once the app listens, `projections status` (CLI) lag 0 on two consecutive polls 1 s apart',
  };
  log(
    `${label}: caught up — projections ${fmt(timings.projectionsCaughtUpMs / 1000, 1)} s ` +
      `(${fmt(catchUp.projectionEventsPerSecond, 0)} events/s), ${PM_NAME} ${fmt(timings.processManagerCaughtUpMs / 1000, 1)} s, ` +
      `app CPU ${fmt(cpu, 0)} s, peak RSS ${catchUp.memory.peakRssMiB} MiB`,
  );
  return { app, watch, catchUp };
}
