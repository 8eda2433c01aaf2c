// The ceilings of `npm run bench:peer`: node:sqlite with no event store around it, at the same
// journal mode and synchronous level. Only single-event appends are meaningful here (no revision
// check, no idempotency, no read model):
// - `raw`: one row (the event's JSON) per transaction — what a commit itself costs;
// - `raw-schema`: our store's own database and connection (opened by the app's createEventStore,
//   so the same table, indexes, pragmas and background checkpoints), but only the INSERT our
//   append makes, with an id made as ours makes it, in BEGIN IMMEDIATE … COMMIT — what storing an
//   event costs before any of our code runs. The gap between the two is SQLite's (a rowid table
//   plus three indexes: four b-trees, four WAL frames a commit), the gap to `ours` is ours.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { openOurs } from './ours.mjs';

export async function openRaw(dataDir, synchronous, { schema = false, appRoot } = {}) {
  let db;
  let close;
  let uuidv7;
  if (schema) {
    const ours = await openOurs(appRoot, dataDir, synchronous);
    db = ours.db;
    uuidv7 = ours.uuidv7;
    close = () => ours.close();
  } else {
    db = new DatabaseSync(join(dataDir, 'raw.db'));
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${synchronous}`);
    db.exec('CREATE TABLE log (position INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    close = () => db.close();
  }
  const insert = schema
    ? db.prepare('INSERT INTO events (id, stream_id, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    : db.prepare('INSERT INTO log (body) VALUES (?)');
  const unsupported = () => {
    throw new Error('raw: single-event appends only');
  };
  return {
    name: schema ? 'raw-schema' : 'raw',
    pragma: (name) => Object.values(db.prepare(`PRAGMA ${name}`).get())[0],
    sqliteVersion: () => db.prepare('SELECT sqlite_version() AS v').get().v,
    async appendOne(streamId, event, expected) {
      const revision = expected === null ? 0 : expected + 1;
      db.exec('BEGIN IMMEDIATE');
      if (schema) {
        insert.run(uuidv7(), streamId, revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata), new Date().toISOString());
      } else {
        insert.run(JSON.stringify(event));
      }
      db.exec('COMMIT');
      return revision;
    },
    appendMany: unsupported,
    readAllPages: unsupported,
    consume: unsupported,
    async head() {
      return db.prepare(`SELECT count(*) AS n FROM ${schema ? 'events' : 'log'}`).get().n;
    },
    async close() {
      await close();
    },
  };
}
