// Opens the stores a process (API, worker, CLI) runs on, and refuses to start on storage that
// cannot be trusted, each refusal a StartError of one plain line that names the file and what to do:
// - an embedded database that SQLite's quick check finds damaged (or that is not a database);
// - an event log that ends before what the read side has applied (lost, truncated, replaced);
// - a secrets key that is missing or another than the one the stored data is sealed with.
// A brand-new DATA_DIR starts with no ceremony. A full disk does not stop a start (reads can
// still be served): it is reported, and readiness says `full` until there is room.
import { join } from 'node:path';

import { type AppConfig, StartError } from '../config';
import { loadSecretsKey } from '../crypto/secrets-key';
import type { EventStore } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { createEventStore, createEventualReadStore, createReadStore } from '../platform.module';
import type { ReadStore } from '../read-store/read-store.port';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { StorageFaultError, storageFaultOf } from '../sqlite/storage-fault';
import { checkDatabases } from './database-check';
import { SqliteKeyLedger } from './key-ledger';
import { logShortfall, type ReadSide } from './log-guard';

/** The opened stores and the secrets key, handed to the platform module in place of its own. */
export interface Storage {
  events: EventStore;
  reads: ReadStore;
  eventualReads: ReadStore;
  secretsKey: Buffer;
}

export interface OpenStorageOptions {
  /**
   * Refuse a log shorter than what the read side applied (default true). Off only for the CLI
   * commands that look at or repair that situation (`projections status`, `projections reset`).
   */
  guardLog?: boolean;
  /** Where a line for the operator goes (a full disk at start, a late-found damage). */
  report?: (line: string) => void;
}

export const EMBEDDED_FILES = { events: 'events.db', reads: 'read.db', eventualReads: 'eventual.db' } as const;

export async function openStorage(config: AppConfig, options: OpenStorageOptions = {}): Promise<Storage> {
  const report = options.report ?? ((line: string) => process.stderr.write(`${line}\n`));
  await refuseDamagedFiles(config, report);
  const events = await opening(config, () => createEventStore(config));
  const reads = await opening(config, () => createReadStore(config)).catch(async (error: unknown) => {
    await closeAll([events]);
    throw error;
  });
  const eventualReads = await opening(config, () => createEventualReadStore(config, reads)).catch(async (error: unknown) => {
    await closeAll([events, reads]);
    throw error;
  });
  try {
    if (options.guardLog !== false) {
      const problem = await logShortfall(events, logLabel(config), readSides(config, reads, eventualReads));
      if (problem) throw new StartError(problem);
    }
    const ledger = events instanceof SqliteEventStore ? new SqliteKeyLedger(events, [reads, eventualReads].filter((s) => s instanceof SqliteReadStore)) : undefined;
    const secretsKey = loadSecretsKey(config, ledger);
    await reportFullDisk([events, reads, eventualReads], report);
    return { events, reads, eventualReads, secretsKey };
  } catch (error) {
    await closeAll([events, reads, eventualReads]);
    throw error;
  }
}

/**
 * Opens a store; an embedded database that cannot even be opened for want of storage (WAL mode
 * makes its -shm and -wal files: on a disk with no byte left, after a clean stop removed them) is
 * a StartError saying so.
 */
async function opening<T>(config: AppConfig, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const fault = error instanceof StorageFaultError ? error.kind : storageFaultOf(error, join(config.DATA_DIR, EMBEDDED_FILES.events));
    if (fault === 'full' || fault === 'read_only') {
      throw new StartError(
        `DATA_DIR=${config.DATA_DIR} cannot be opened: ${fault === 'full' ? 'its file system has no space left' : 'its file system is read-only'} ` +
          `(${error instanceof Error ? error.message : String(error)}). Free some space (or make it writable) and start again.`,
      );
    }
    throw error;
  }
}

/** The embedded databases, quick-checked in parallel within SQLITE_START_CHECK_MS. */
async function refuseDamagedFiles(config: AppConfig, report: (line: string) => void): Promise<void> {
  const paths = [
    ...(config.EVENT_STORE === 'sqlite' ? [EMBEDDED_FILES.events] : []),
    ...(config.READ_STORE === 'sqlite' ? [EMBEDDED_FILES.reads, EMBEDDED_FILES.eventualReads] : []),
  ].map((file) => join(config.DATA_DIR, file));
  const outcomes = await checkDatabases(paths, {
    budgetMs: config.SQLITE_START_CHECK_MS,
    onLateDamage: (file, problem) => report(`${damageLine(config, file, problem)} Writes to it are refused and readiness answers 503 until then.`),
  });
  const damaged = outcomes.find((o) => o.state === 'damaged');
  if (damaged?.state === 'damaged') throw new StartError(damageLine(config, damaged.file, damaged.problem));
  for (const outcome of outcomes) {
    if (outcome.state === 'unchecked') report(`DATA_DIR=${config.DATA_DIR}: ${outcome.file} could not be checked at start (${outcome.reason})`);
  }
  const running = outcomes.filter((o) => o.state === 'running').map((o) => o.file);
  if (running.length > 0) {
    report(`DATA_DIR=${config.DATA_DIR}: the quick check of ${running.join(' and ')} goes on in the background (SQLITE_START_CHECK_MS=${config.SQLITE_START_CHECK_MS})`);
  }
}

/** What a damaged file means and what to do, by which file it is. */
function damageLine(config: AppConfig, file: string, problem: string): string {
  const path = join(config.DATA_DIR, file);
  const what = `${path} is damaged (SQLite's quick check: ${problem}).`;
  if (file === EMBEDDED_FILES.events) {
    return `${what} It is the event log, the one source of truth: restore it from a backup (with its -wal file, if the backup has one).`;
  }
  return (
    `${what} It holds only read models, rebuilt from the log: stop every process on DATA_DIR, remove ${file} ` +
    `(with ${file}-wal and ${file}-shm), and start again.`
  );
}

function logLabel(config: AppConfig): string {
  return config.EVENT_STORE === 'sqlite' ? join(config.DATA_DIR, EMBEDDED_FILES.events) : 'in EventStoreDB';
}

function readSides(config: AppConfig, reads: ReadStore, eventualReads: ReadStore): ReadSide[] {
  if (config.READ_STORE !== 'sqlite') return [{ label: `MongoDB database ${config.MONGO_DB}`, store: reads }];
  return [
    { label: EMBEDDED_FILES.reads, store: reads },
    { label: EMBEDDED_FILES.eventualReads, store: eventualReads },
  ];
}

/** A start on a full (or read-only) disk goes on — reads can be served — but says so once. */
async function reportFullDisk(stores: ReadonlyArray<EventStore | ReadStore>, report: (line: string) => void): Promise<void> {
  for (const store of new Set(stores)) {
    try {
      await store.ping();
    } catch (error) {
      const fault = storageFaultOf(error);
      if (fault === 'full' || fault === 'read_only') {
        report(`storage is ${fault === 'full' ? 'full' : 'read-only'} at start (${error instanceof Error ? error.message : String(error)}): writes that need room are refused, and readiness answers 503 until there is some`);
        return;
      }
    }
  }
}

async function closeAll(stores: ReadonlyArray<EventStore | ReadStore>): Promise<void> {
  for (const store of new Set(stores)) await store.close().catch(() => undefined);
}
