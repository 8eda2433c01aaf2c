// Preload for profiling the app without touching its code: times every node:sqlite call
// (prepare, exec, StatementSync.run/get/all/iterate) per SQL text and database file, and writes the
// totals as JSON to $SQLITE_TIMING_OUT when the process exits.
//
//   SQLITE_TIMING_OUT=/tmp/sqlite-timing.json BENCH_ONLY=post-app \
//     BENCH_APP_NODE_OPTIONS="--import ./bench/sqlite-timing.mjs" node bench/run.mjs
import { writeFileSync } from 'node:fs';

import { stats } from './sqlite-instrument.mjs';

const started = process.hrtime.bigint();
function dump() {
  const out = process.env.SQLITE_TIMING_OUT;
  if (!out) return;
  const rows = [...stats]
    .map(([key, s]) => ({ key, calls: s.calls, totalMs: Number(s.ns) / 1e6, meanUs: Number(s.ns) / 1e3 / s.calls }))
    .sort((a, b) => b.totalMs - a.totalMs);
  writeFileSync(out, JSON.stringify({ wallMs: Number(process.hrtime.bigint() - started) / 1e6, rows }, null, 2));
}
process.on('exit', dump);
// Nest re-raises SIGTERM after its shutdown hooks; dump first so the numbers survive either way.
process.prependListener('SIGTERM', dump);
