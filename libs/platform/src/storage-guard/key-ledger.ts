// Which secrets key the embedded data is sealed with, so a start never changes it silently: the
// key's id (a hash prefix that names it without revealing it, as in every sealed value) recorded
// beside the log in events.db, so that a start with the same key looks no further; and a search
// of the stored data for a sealed value, the evidence when a key is missing or another one.
import type { DatabaseSync } from 'node:sqlite';

import type { SealingRecord } from '../crypto/secrets-key';
import type { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { SqliteReadStore } from '../read-store/sqlite-read-store';
import { immediateTransaction } from '../sqlite/sqlite-database';
import { storageFaultOf } from '../sqlite/storage-fault';

const META_SCHEMA = 'CREATE TABLE IF NOT EXISTS store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)';
const KEY_ID_NAME = 'secrets_key_id';
/** Every sealed value starts so (SecretBox: 'sb1.<keyId>.…'), inside a JSON string. */
const SEALED = /"sb1\.([0-9a-f]{8})\./;

export class SqliteKeyLedger implements SealingRecord {
  constructor(
    private readonly events: SqliteEventStore,
    private readonly reads: readonly SqliteReadStore[] = [],
  ) {}

  recordedKeyId(): string | undefined {
    if (!hasTable(this.events.db, 'store_meta')) return undefined;
    const row = this.events.db.prepare('SELECT value FROM store_meta WHERE name = ?').get(KEY_ID_NAME) as { value: string } | undefined;
    return row?.value;
  }

  record(keyId: string): void {
    try {
      immediateTransaction(this.events.db, () => {
        this.events.db.exec(META_SCHEMA);
        this.events.db.prepare('INSERT INTO store_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(KEY_ID_NAME, keyId);
      });
    } catch (error) {
      // No room to note it: the search finds the key's sealed values at the next start instead.
      if (storageFaultOf(error) === undefined) throw error;
    }
  }

  /** The newest sealed value in the stored data, if any (a scan: asked only when nothing is recorded). */
  findSealed(): { keyId: string; where: string } | undefined {
    // The log, newest first (a scan backwards by position stops at the first hit).
    const event = this.events.db
      .prepare(`SELECT position, data FROM events WHERE instr(data, '"sb1.') > 0 ORDER BY position DESC LIMIT 1`)
      .get() as { position: number; data: string } | undefined;
    const inLog = event ? SEALED.exec(event.data) : null;
    if (event && inLog) return { keyId: inLog[1], where: `events.db (the event at position ${event.position})` };
    // Stored answers of Idempotency-Keys that held a secret.
    for (const store of this.reads) {
      if (!hasTable(store.writer, 'c_idempotency_keys')) continue;
      const row = store.writer.prepare(`SELECT doc FROM c_idempotency_keys WHERE instr(doc, '"sb1.') > 0 LIMIT 1`).get() as { doc: string } | undefined;
      const sealed = row ? SEALED.exec(row.doc) : null;
      if (sealed) return { keyId: sealed[1], where: `${store.path.split('/').pop() ?? 'read.db'} (a stored Idempotency-Key answer)` };
    }
    return undefined;
  }
}

function hasTable(db: DatabaseSync, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
