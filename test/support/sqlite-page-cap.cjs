// Test-only fault injection, preloaded into a spawned app (`node --require <this> main.js`): it
// notes every node:sqlite connection the process opens, and on an IPC message caps or frees their
// database size with SQLite's own `PRAGMA max_page_count`. A capped database fails the next write
// that needs a new page with the genuine SQLITE_FULL ("database or disk is full"), exactly as a full
// disk does; raising the cap again is "space is back". Nothing of this exists in production code or
// configuration. Messages in: { sqlite: 'cap' | 'free', files: ['events.db', …] }; out: { sqlite: 'done', capped: [...] }.
// `release` drops the connections' page caches (PRAGMA shrink_memory), so that their next reads meet
// what is on disk now — a page a test overwrote behind SQLite's back, as a failing disk would.
'use strict';

const { isMainThread } = require('node:worker_threads');
const sqlite = require('node:sqlite');

const connections = [];
const exec = sqlite.DatabaseSync.prototype.exec;
sqlite.DatabaseSync.prototype.exec = function patchedExec(sql) {
  if (!connections.includes(this)) connections.push(this);
  return exec.call(this, sql);
};

const NO_CAP = 4294967294;

if (isMainThread && typeof process.send === 'function') {
  process.on('message', (message) => {
    if (!message || !['cap', 'free', 'release'].includes(message.sqlite)) return;
    const done = [];
    for (const db of connections) {
      if (!db.isOpen) continue;
      const file = db.location();
      if (!file || !message.files.some((name) => file.endsWith(`/${name}`))) continue;
      if (message.sqlite === 'release') {
        exec.call(db, 'PRAGMA shrink_memory');
      } else {
        // SQLite clamps a cap below the current size to the current size: no page left to grow into.
        exec.call(db, `PRAGMA max_page_count = ${message.sqlite === 'cap' ? 1 : NO_CAP}`);
      }
      done.push(file);
    }
    process.send({ sqlite: 'done', capped: done });
  });
  // The IPC channel must not keep the app alive by itself.
  process.channel?.unref();
}
