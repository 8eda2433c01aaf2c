// The background checkpointer copies the WAL back into the database from another thread, so the
// next writes reuse the WAL from its start instead of growing it (and no commit on this thread
// has to checkpoint).
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { WalCheckpointer } from './wal-checkpointer';

const meta = { workspaceId: 'ws_1', schemaVersion: 1 };
const payload = 'x'.repeat(2000);
/** How long a background checkpoint may take to come round (it runs every 50 ms when idle): only catches a hang. */
const CHECKPOINT_DEADLINE_MS = 20_000;

/**
 * Waits until a background checkpoint that started after the call has copied the whole WAL into
 * the database (so the next write starts the WAL over), instead of sleeping and hoping it ran.
 */
async function wholeWalCheckpointed(checkpointer: WalCheckpointer): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no background checkpoint copied the whole WAL within ${CHECKPOINT_DEADLINE_MS} ms`)),
      CHECKPOINT_DEADLINE_MS,
    );
  });
  try {
    for (;;) {
      const { log, checkpointed } = await Promise.race([checkpointer.nextCheckpoint(), deadline]);
      if (log > 0 && checkpointed === log) return;
    }
  } finally {
    clearTimeout(timer);
  }
}

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
    if (backgroundCheckpointMs > 0) {
      // The store's own checkpointer (private: reached by name, for this test only).
      const checkpointer = store['checkpointer'];
      if (!checkpointer) throw new Error('the store started no background checkpointer');
      await wholeWalCheckpointed(checkpointer);
    } else {
      // Nothing to wait for: the same pause as before, and nothing checkpoints meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
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

  it('stops without leaving a timer behind: nothing of the store keeps the process alive after close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wal-'));
    const store = new SqliteEventStore(join(dir, 'events.db'), { backgroundCheckpointMs: 50 });
    const started = jest.spyOn(global, 'setTimeout');
    try {
      await store.append('s-1', [{ type: 't', data: {}, metadata: meta }], { expectedRevision: 'no_stream' });
      await store.close();
      // Every timer the close started has fired or was cleared (a pending one would hold jest's exit).
      const pending = started.mock.results.map((r) => r.value as NodeJS.Timeout).filter((t) => !(t as unknown as { _destroyed: boolean })._destroyed && t.hasRef());
      expect(started).toHaveBeenCalled();
      expect(pending).toEqual([]);
    } finally {
      started.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without it (and a high autocheckpoint), the WAL keeps growing', async () => {
    const { first, second } = await walGrowth(0);
    expect(second).toBeGreaterThan(first * 1.5);
  });
});
