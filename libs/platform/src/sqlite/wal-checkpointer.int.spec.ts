// The background checkpointer copies the WAL back into the database from another thread, so the
// next writes reuse the WAL from its start instead of growing it (and no commit on this thread
// has to checkpoint).
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteEventStore } from '../event-store/sqlite-event-store';

const meta = { workspaceId: 'ws_1', schemaVersion: 1 };
const payload = 'x'.repeat(2000);

async function walGrowth(backgroundCheckpointMs: number): Promise<{ first: number; second: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'wal-'));
  const path = join(dir, 'events.db');
  const store = new SqliteEventStore(path, { backgroundCheckpointMs, walAutocheckpointPages: 100_000 });
  try {
    const batch = async (tag: string) =>
      store.appendMany(
        Array.from({ length: 200 }, (_, i) => ({
          streamId: `s-${tag}-${i}`,
          events: [{ type: 't', data: { payload }, metadata: meta }],
          expectedRevision: 'no_stream' as const,
        })),
      );
    await batch('a');
    const first = statSync(`${path}-wal`).size;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await batch('b');
    return { first, second: statSync(`${path}-wal`).size };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('WalCheckpointer', () => {
  it('with it, the WAL is checkpointed in the background and reused from its start', async () => {
    const { first, second } = await walGrowth(50);
    expect(second).toBeLessThan(first * 1.5);
  });

  it('without it (and a high autocheckpoint), the WAL keeps growing', async () => {
    const { first, second } = await walGrowth(0);
    expect(second).toBeGreaterThan(first * 1.5);
  });
});
