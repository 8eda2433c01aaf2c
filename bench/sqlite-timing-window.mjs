// Preload for the scale bench: like bench/sqlite-timing.mjs (times every node:sqlite call per SQL
// text and database file, without touching the app's code), but the totals can be snapshotted
// while the process runs, so a measurement window (a load run, a push) can be isolated by
// difference: each SIGUSR2 writes the running totals to `$SQLITE_TIMING_OUT.<n>.json` (n = 1, 2, …).
//
//   BENCH_SCALE_SQL_TIMING=1 node bench/scale.mjs      (scale.mjs adds the preload and the signals)
import { renameSync, writeFileSync } from 'node:fs';

import { stats } from './sqlite-instrument.mjs';

let n = 0;
process.on('SIGUSR2', () => {
  const out = process.env.SQLITE_TIMING_OUT;
  if (!out) return;
  n += 1;
  const rows = [...stats].map(([key, s]) => ({ key, calls: s.calls, ns: s.ns.toString() }));
  const file = `${out}.${n}.json`;
  // Written under another name first: the reader polls for the final name.
  writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), rows }));
  renameSync(`${file}.tmp`, file);
});
