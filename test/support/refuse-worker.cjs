// Test-only, preloaded into a spawned app (`node --require <this> main.js`): the API's worker
// processes inherit the preload (they are forked with the API's execArgv) and exit at once, before
// they load anything, so the app runs as if its worker could never start. The API itself is untouched.
'use strict';

if (process.env.WORKER_ROLE !== undefined) {
  process.stderr.write('worker process refused to start (test hook)\n');
  process.exit(3);
}
