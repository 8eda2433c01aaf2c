import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ApiError } from '@app/platform';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { HealthController } from './health.controller';

describe('readiness', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-ready-'));
    events = new SqliteEventStore(join(dir, 'events.db'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
  });

  afterEach(async () => {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

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
});
