// Both embedded stores on a fresh temp directory, for int specs that need real SQLite files:
// `open()` in a beforeEach, `close()` in the afterEach (it also removes the directory).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

export interface TempStores {
  dir: string;
  events: SqliteEventStore;
  reads: SqliteReadStore;
}

export function openTempStores(prefix: string): TempStores {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, events: new SqliteEventStore(join(dir, 'events.db')), reads: new SqliteReadStore(join(dir, 'read.db')) };
}

export async function closeTempStores(stores: TempStores): Promise<void> {
  await stores.events.close();
  await stores.reads.close();
  rmSync(stores.dir, { recursive: true, force: true });
}
