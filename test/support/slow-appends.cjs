// Test-only, preloaded into a spawned app (`node --require <this> main.js`): every append that
// creates a buyer request waits TEST_SLOW_APPEND_MS before it reaches the log, so the request that
// makes it stays in flight for a known time (writes answer from their own decision and wait for
// nothing else, so nothing in the app itself keeps one in flight that long). Nothing of this exists
// in production code or configuration.
'use strict';

const { join } = require('node:path');

const delayMs = Number(process.env.TEST_SLOW_APPEND_MS ?? '0');
// The compiled app beside its entry point: dist/apps/<app>/src/main.js → dist/libs/platform/…
const dist = join(process.argv[1], '..', '..', '..', '..');
const { SqliteEventStore } = require(join(dist, 'libs/platform/src/event-store/sqlite-event-store.js'));

const createsRequest = (writes) => writes.some((w) => w.events.some((e) => e.type === 'buyer_request.created'));
const pause = () => new Promise((resolve) => setTimeout(resolve, delayMs));

const { append, appendMany } = SqliteEventStore.prototype;
SqliteEventStore.prototype.append = async function slowAppend(streamId, events, options) {
  if (createsRequest([{ events }])) await pause();
  return append.call(this, streamId, events, options);
};
SqliteEventStore.prototype.appendMany = async function slowAppendMany(writes) {
  if (createsRequest(writes)) await pause();
  return appendMany.call(this, writes);
};
