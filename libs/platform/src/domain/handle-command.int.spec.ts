import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { type RecordedEvent, WrongExpectedRevisionError } from '../event-store/event-store.port';
import type { Decider } from './decider';
import { DomainError } from './domain-error';
import { handleCommand } from './handle-command';
import { PreconditionFailedError } from './precondition';

type CounterEvent = { type: 'counter.opened'; data: Record<string, never> } | { type: 'counter.incremented'; data: { by: number } };
type CounterCommand = { type: 'Open' } | { type: 'Increment'; by: number };
type CounterState = { status: 'none' } | { status: 'open'; value: number };

const counter: Decider<CounterCommand, CounterEvent, CounterState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    if (command.type === 'Open') {
      if (state.status !== 'none') throw new DomainError('CONFLICT', 'already open');
      return [{ type: 'counter.opened', data: {} }];
    }
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'no counter');
    return [{ type: 'counter.incremented', data: { by: command.by } }];
  },
  evolve(state, event) {
    if (event.type === 'counter.opened') return { status: 'open', value: 0 };
    return state.status === 'open' ? { ...state, value: state.value + event.data.by } : state;
  },
};
const aggregate = { decider: counter, parseEvent: (e: RecordedEvent) => ({ type: e.type, data: e.data }) as CounterEvent };
const meta = { workspaceId: 'ws_1', actor: 'test' };

describe('handleCommand', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-handle-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends the decided events with the schema version and returns the new state', async () => {
    const result = await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta, { newStream: true });
    expect(result).toMatchObject({ revision: 0, state: { status: 'open', value: 0 } });
    const [event] = await store.readStream('counter-1');
    expect(event.metadata).toEqual({ workspaceId: 'ws_1', actor: 'test', schemaVersion: 1 });
  });

  it('with newStream on a stream that exists, decides on its real state', async () => {
    await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta);
    await expect(handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta, { newStream: true })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await store.readStream('counter-1')).toHaveLength(1);
  });

  it('retries version conflicts, so concurrent commands all land', async () => {
    await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta);
    const other = new SqliteEventStore(join(dir, 'events.db'));
    try {
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          handleCommand(i % 2 ? store : other, 'counter-1', aggregate, { type: 'Increment', by: 1 }, meta, { maxAttempts: 10 }),
        ),
      );
    } finally {
      await other.close();
    }
    const events = await store.readStream('counter-1');
    expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('makes a command from the state again on every attempt, so it never acts on a stale one', async () => {
    await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta);
    const seen: number[] = [];
    let raced = false;
    const result = await handleCommand(
      store,
      'counter-1',
      aggregate,
      async (state): Promise<CounterCommand> => {
        const value = state.status === 'open' ? state.value : -1;
        seen.push(value);
        if (!raced) {
          raced = true; // another writer lands between this read and its append
          await handleCommand(store, 'counter-1', aggregate, { type: 'Increment', by: 10 }, meta);
        }
        return { type: 'Increment', by: value + 1 };
      },
      meta,
    );
    expect(seen).toEqual([0, 10]);
    expect(result.state).toEqual({ status: 'open', value: 21 });
  });

  it('If-Match: decides only on the revision named; another is PreconditionFailedError, never retried, nothing appended', async () => {
    await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta, { newStream: true });
    await handleCommand(store, 'counter-1', aggregate, { type: 'Increment', by: 1 }, meta, { ifMatch: 0 });
    const stale = await handleCommand(store, 'counter-1', aggregate, { type: 'Increment', by: 5 }, meta, { ifMatch: 0 }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({ streamId: 'counter-1', expected: 0, actual: 1, message: expect.stringContaining('W/"1"') });
    expect(await store.readStream('counter-1')).toHaveLength(2);
    await expect(handleCommand(store, 'counter-2', aggregate, { type: 'Open' }, meta, { ifMatch: 0 })).rejects.toMatchObject({ actual: -1 });
    // A stream that does not exist: what the decider refuses without If-Match (404) it refuses with it.
    await expect(handleCommand(store, 'counter-3', aggregate, { type: 'Increment', by: 1 }, meta, { ifMatch: 0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await store.readStream('counter-2')).toHaveLength(0);
  });

  it('a null command decides nothing and answers where the stream stands', async () => {
    const opened = await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta);
    const result = await handleCommand(store, 'counter-1', aggregate, () => null, meta);
    expect(result).toMatchObject({ events: [], position: null, revision: 0, streamPosition: opened.position });
  });

  it('decides on a state the caller read (known), and reads again only after a conflict', async () => {
    await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta);
    const stale = { state: { status: 'open' as const, value: 0 }, revision: 0 };
    await handleCommand(store, 'counter-1', aggregate, { type: 'Increment', by: 1 }, meta, { known: stale });
    // The same stale state again: its append conflicts, the stream is read, the command lands on top.
    const result = await handleCommand(store, 'counter-1', aggregate, { type: 'Increment', by: 1 }, meta, { known: stale });
    expect(result).toMatchObject({ revision: 2, state: { value: 2 } });
  });

  it('appendOnly records facts without reading the stream: concurrent ones all land, none conflicts', async () => {
    const facts: Decider<{ type: 'Note'; n: number }, { type: 'fact.noted'; data: { n: number } }, null> = {
      initialState: null,
      decide: (c) => [{ type: 'fact.noted', data: { n: c.n } }],
      evolve: (s) => s,
    };
    const notes = { decider: facts, parseEvent: (e: RecordedEvent) => ({ type: 'fact.noted' as const, data: e.data as { n: number } }) };
    const read = jest.spyOn(store, 'readStream');
    await Promise.all(Array.from({ length: 20 }, (_, n) => handleCommand(store, 'facts-ws_1', notes, { type: 'Note', n }, meta, { appendOnly: true, maxAttempts: 1 })));
    expect(read).not.toHaveBeenCalled();
    expect((await store.readStream('facts-ws_1')).map((e) => (e.data as { n: number }).n).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('deterministic event ids make the same decision appended twice land once', async () => {
    const ids = (i: number) => `00000000-0000-7000-8000-00000000000${i}`;
    await handleCommand(store, 'counter-9', aggregate, { type: 'Open' }, meta, { newStream: true, eventIds: ids });
    await handleCommand(store, 'counter-9', aggregate, { type: 'Open' }, meta, { newStream: true, eventIds: ids });
    expect((await store.readStream('counter-9')).map((e) => e.id)).toEqual([ids(0)]);
  });

  it('another workspace\'s stream reads as absent: the decider answers as for a missing one, nothing is appended', async () => {
    await handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, meta);
    const other = { workspaceId: 'ws_2', actor: 'test' };
    await expect(handleCommand(store, 'counter-1', aggregate, { type: 'Increment', by: 1 }, other)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, other, { maxAttempts: 2 })).rejects.toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    expect(await store.readStream('counter-1')).toHaveLength(1);
    // A stream that belongs to no workspace (a global claim) is decided on whoever wrote it.
    await expect(handleCommand(store, 'counter-1', aggregate, { type: 'Open' }, other, { anyWorkspace: true })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });
});
