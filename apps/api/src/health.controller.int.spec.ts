
import { ApiError } from '@app/platform';
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
    await expect(new HealthController(events, reads).ready()).resolves.toEqual({
      status: 'ready',
      checks: { eventStore: 'ok', readStore: 'ok' },
    });
  });

  it.each(['eventStore', 'readStore'] as const)('answers 503 NOT_READY naming the %s when it is down', async (which) => {
    await (which === 'eventStore' ? events : reads).close();
    const error = await new HealthController(events, reads).ready().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'NOT_READY', details: { checks: { [which]: 'unavailable' } } });
    expect((error as ApiError).message).toContain(which);
  });

  // A genuine SQLITE_FULL: SQLite's size cap leaves the database no page to grow into.
  it('is not ready while a store is full, and ready again once there is room, without a write', async () => {
    const controller = new HealthController(events, reads);
    events.db.exec('PRAGMA max_page_count = 1');
    const write = (): Promise<unknown> =>
      events.append('s', [{ type: 't', data: { pad: 'x'.repeat(8000) }, metadata: { workspaceId: 'ws_1', schemaVersion: 1 } }], {
        expectedRevision: 'any',
      });
    await expect(write()).rejects.toMatchObject({ kind: 'full' });
    const error = await controller.ready().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'NOT_READY', details: { checks: { eventStore: 'full', readStore: 'ok' } } });
    expect((error as ApiError).message).toBe('Not ready: eventStore full');

    events.db.exec('PRAGMA max_page_count = 4294967294');
    await expect(controller.ready()).resolves.toEqual({ status: 'ready', checks: { eventStore: 'ok', readStore: 'ok' } });
    await expect(write()).resolves.toMatchObject({ nextRevision: 0 });
  });

  it('says read-only when the read model cannot be written', async () => {
    const things = reads.collection({ name: 'things', indexes: [] });
    reads.writer.exec('PRAGMA query_only = ON');
    await expect(things.put({ id: 'a' })).rejects.toMatchObject({ kind: 'read_only' });
    const error = await new HealthController(events, reads).ready().catch((e: unknown) => e);
    expect(error).toMatchObject({ details: { checks: { eventStore: 'ok', readStore: 'read_only' } }, message: 'Not ready: readStore read-only' });
    reads.writer.exec('PRAGMA query_only = OFF');
    await expect(new HealthController(events, reads).ready()).resolves.toMatchObject({ status: 'ready' });
  });
});
