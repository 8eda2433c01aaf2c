import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { ApiError, mapError } from '@app/platform';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';

import { HealthController } from './health.controller';

describe('readiness', () => {
  let stores: TempStores;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;

  beforeEach(() => {
    stores = openTempStores('cc-ready-');
    ({ events, reads } = stores);
  });

  afterEach(() => closeTempStores(stores));

  it('is ready when both stores answer', async () => {
    await expect(new HealthController(events, reads, reads).ready()).resolves.toEqual({
      status: 'ready',
      checks: { eventStore: 'ok', readStore: 'ok' },
    });
  });

  it.each(['eventStore', 'readStore'] as const)('answers 503 NOT_READY naming the %s when it is down', async (which) => {
    await (which === 'eventStore' ? events : reads).close();
    const error = await new HealthController(events, reads, reads).ready().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'NOT_READY', details: { checks: { [which]: 'unavailable' } } });
    expect((error as ApiError).message).toContain(which);
  });

  // A genuine SQLITE_FULL: SQLite's size cap leaves the database no page to grow into.
  it('is not ready while a store is full, and ready again once there is room, without a write', async () => {
    const controller = new HealthController(events, reads, reads);
    events.db.exec('PRAGMA max_page_count = 1');
    const write = (): Promise<unknown> =>
      events.append('s', [{ type: 't', data: { pad: 'x'.repeat(8000) }, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } }], {
        expectedRevision: 'any',
      });
    await expect(write()).rejects.toMatchObject({ kind: 'full' });
    const error = await controller.ready().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'NOT_READY', details: { checks: { eventStore: 'full', readStore: 'ok' } } });
    expect((error as ApiError).message).toBe('Not ready: eventStore full (events.db)');
    expect(error).toMatchObject({ details: { files: { eventStore: 'events.db' } } });

    events.db.exec('PRAGMA max_page_count = 4294967294');
    await expect(controller.ready()).resolves.toEqual({ status: 'ready', checks: { eventStore: 'ok', readStore: 'ok' } });
    await expect(write()).resolves.toMatchObject({ nextRevision: 0 });
  });

  it('says read-only when the read model cannot be written', async () => {
    const things = reads.collection({ name: 'things', indexes: [] });
    reads.writer.exec('PRAGMA query_only = ON');
    await expect(things.put({ id: 'a' })).rejects.toMatchObject({ kind: 'read_only' });
    const error = await new HealthController(events, reads, reads).ready().catch((e: unknown) => e);
    expect(error).toMatchObject({ details: { checks: { eventStore: 'ok', readStore: 'read_only' } }, message: 'Not ready: readStore read-only (read.db)' });
    reads.writer.exec('PRAGMA query_only = OFF');
    await expect(new HealthController(events, reads, reads).ready()).resolves.toMatchObject({ status: 'ready' });
  });

  // A page of the log overwritten behind SQLite's back, as a failing disk or a stray write does.
  it('says corrupt, naming the file, once a damaged page is met; writes to it are then refused without touching it', async () => {
    const controller = new HealthController(events, reads, reads);
    for (let i = 0; i < 40; i += 1) {
      await events.append(`s-${i}`, [{ type: 't', data: { pad: 'x'.repeat(2000) }, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } }], {
        expectedRevision: 'no_stream',
      });
    }
    events.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const file = join(stores.dir, 'events.db');
    const pages = statSync(file).size / 4096;
    const fd = openSync(file, 'r+');
    for (let page = 2; page < pages; page += 1) writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, page * 4096);
    closeSync(fd);
    events.db.exec('PRAGMA shrink_memory'); // its cached pages dropped: the next read meets the disk's

    const read = await events.readStream('s-3').catch((e: unknown) => e);
    expect(read).toMatchObject({ kind: 'corrupt', file: 'events.db' });
    const error = await controller.ready().catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 503,
      code: 'NOT_READY',
      message: 'Not ready: eventStore corrupt (events.db)',
      details: { checks: { eventStore: 'corrupt', readStore: 'ok' }, files: { eventStore: 'events.db' } },
    });
    const write = await events.append('s-new', [{ type: 't', data: {}, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } }], { expectedRevision: 'any' }).catch((e: unknown) => e);
    expect(mapError(write)).toMatchObject({ status: 503, body: { code: 'STORAGE_CORRUPT' } });
    expect(mapError(write).headers).toBeUndefined();
  });
});
