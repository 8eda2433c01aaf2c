// The workspaces read model carries each workspace's own rate limits (what the auth guard reads).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RecordedEvent } from '@app/platform';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { WORKSPACES, type WorkspaceDoc, workspaceProjection } from './workspace.projection';

const createdAt = '2026-03-01T10:00:00.000Z';
let position = 0;

function recorded(revision: number, type: string, data: unknown): RecordedEvent {
  position += 1;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type,
    data,
    metadata: { workspaceId: 'ws_1', actor: 'test', schemaVersion: 1 },
    streamId: 'workspace-ws_1',
    revision,
    position,
    createdAt,
  };
}

describe('workspaces projection', () => {
  let dir: string;
  let store: SqliteReadStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workspaces-projection-'));
    store = new SqliteReadStore(join(dir, 'read.db'));
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const read = () => store.collection<WorkspaceDoc>(WORKSPACES).get('ws_1');

  it('starts a workspace on the default limits and follows the ones set for it', async () => {
    const created = recorded(0, 'workspace.created', { workspaceId: 'ws_1', name: 'Acme', slug: 'acme', createdAt });
    await workspaceProjection.apply(created, store);
    expect(await read()).toMatchObject({ id: 'ws_1', slug: 'acme', limits: { perMinute: null, perSecond: null } });

    const set = recorded(1, 'workspace.limits_set', { workspaceId: 'ws_1', perMinute: 600, perSecond: 50, setAt: createdAt });
    await workspaceProjection.apply(set, store);
    expect(await read()).toMatchObject({ slug: 'acme', revision: 1, limits: { perMinute: 600, perSecond: 50 } });

    // Applied twice = applied once (a replay after a crash between batch and checkpoint).
    const reset = recorded(2, 'workspace.limits_set', { workspaceId: 'ws_1', perMinute: null, perSecond: 50, setAt: createdAt });
    await workspaceProjection.apply(reset, store);
    await workspaceProjection.apply(set, store);
    expect((await read())?.limits).toEqual({ perMinute: null, perSecond: 50 });
  });
});
