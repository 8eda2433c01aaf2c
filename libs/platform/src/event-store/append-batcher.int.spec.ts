// AppendBatcher over the SQLite store: the writes of one turn share one appendMany, and each keeps
// its own outcome.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { newEvent } from '@app/testing/contracts/event-store.contract';

import { AppendBatcher } from './append-batcher';
import { WrongExpectedRevisionError } from './event-store.port';
import { SqliteEventStore } from './sqlite-event-store';

describe('AppendBatcher', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'append-batcher-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends the writes of one turn in one appendMany, each with its own result', async () => {
    const appendMany = jest.spyOn(store, 'appendMany');
    const batcher = new AppendBatcher(store);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => batcher.append(`s-${i}`, [newEvent('t.a', { i })], { expectedRevision: 'no_stream' })),
    );
    expect(appendMany).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r.nextRevision)).toEqual(Array(20).fill(0));
    const positions = results.map((r) => r.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const [i, result] of results.entries()) {
      const [event] = await store.readStream(`s-${i}`);
      expect([event.position, event.data]).toEqual([result.position, { i }]);
    }
  });

  it('fails only the write whose expected revision is wrong; the others land', async () => {
    await store.append('taken', [newEvent('t.a')], { expectedRevision: 'no_stream' });
    const batcher = new AppendBatcher(store);
    const outcomes = await Promise.allSettled([
      batcher.append('free-1', [newEvent('t.a')], { expectedRevision: 'no_stream' }),
      batcher.append('taken', [newEvent('t.b')], { expectedRevision: 'no_stream' }),
      batcher.append('taken-next', [newEvent('t.c')], { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.readStream('taken')).map((e) => e.type)).toEqual(['t.a']);
    expect(await store.readStream('free-1')).toHaveLength(1);
    expect(await store.readStream('taken-next')).toHaveLength(1);
  });

  it('splits a turn larger than its batch size, and gives every event an id', async () => {
    const appendMany = jest.spyOn(store, 'appendMany');
    const batcher = new AppendBatcher(store, 4);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => batcher.append(`s-${i}`, [{ type: 't.a', data: {}, metadata: { workspaceId: 'ws', schemaVersion: 1 } }], { expectedRevision: 'no_stream' })),
    );
    expect(appendMany.mock.calls.map(([writes]) => writes.length)).toEqual([4, 4, 2]);
    const ids = appendMany.mock.calls.flatMap(([writes]) => writes.flatMap((w) => w.events.map((e) => e.id)));
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
  });
});
