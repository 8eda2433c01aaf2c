// The multi-stream write path on SQLite: decisions on several streams land in one append (all or
// none), a conflict runs the work again on fresh states, another workspace's stream is never touched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { RecordedEvent } from '../event-store/event-store.port';
import { WrongExpectedRevisionError } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import type { Decider } from './decider';
import { DomainError } from './domain-error';
import { handleCommand } from './handle-command';
import { handleCommands } from './handle-commands';

// A stock of units that can be reserved, and an order that claims them.
type StockEvent = { type: 'stock.added'; data: { units: number } } | { type: 'stock.reserved'; data: { orderId: string; units: number } };
type StockCommand = { type: 'Add'; units: number } | { type: 'Reserve'; orderId: string; units: number };
type StockState = { units: number; reservedBy: string[] };
const stock: Decider<StockCommand, StockEvent, StockState> = {
  initialState: { units: 0, reservedBy: [] },
  decide(command, state) {
    if (command.type === 'Add') return [{ type: 'stock.added', data: { units: command.units } }];
    if (state.reservedBy.includes(command.orderId)) return []; // its own earlier decision: done
    if (state.units < command.units) throw new DomainError('CONFLICT', 'not enough units');
    return [{ type: 'stock.reserved', data: { orderId: command.orderId, units: command.units } }];
  },
  evolve(state, event) {
    if (event.type === 'stock.added') return { ...state, units: state.units + event.data.units };
    return { units: state.units - event.data.units, reservedBy: [...state.reservedBy, event.data.orderId] };
  },
};
type OrderEvent = { type: 'order.opened'; data: { orderId: string } };
type OrderCommand = { type: 'Open'; orderId: string };
const order: Decider<OrderCommand, OrderEvent, { open: boolean }> = {
  initialState: { open: false },
  decide(command, state) {
    if (state.open) throw new DomainError('CONFLICT', 'already open');
    return [{ type: 'order.opened', data: { orderId: command.orderId } }];
  },
  evolve: () => ({ open: true }),
};
const parse = <E>(e: RecordedEvent) => ({ type: e.type, data: e.data }) as E;
const stockAggregate = { decider: stock, parseEvent: parse<StockEvent> };
const orderAggregate = { decider: order, parseEvent: parse<OrderEvent>, schemaVersion: 2 };
const meta = { workspaceId: 'ws_1', actor: 'test' };

describe('handleCommands (several streams, one append)', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-handle-many-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    await handleCommand(store, 'stock-1', stockAggregate, { type: 'Add', units: 1 }, meta);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reserveAndOpen = (orderId: string) =>
    handleCommands(store, meta, async (tx) => {
      const item = await tx.load('stock-1', stockAggregate);
      tx.decide(item, { type: 'Reserve', orderId, units: 1 });
      tx.decide(tx.create(`order-${orderId}`, orderAggregate), { type: 'Open', orderId });
      return item.state.units;
    });

  it('appends every stream\'s decision together, with metadata and each aggregate\'s schema version', async () => {
    const result = await reserveAndOpen('o1');
    expect(result.value).toBe(0);
    expect(result.streams.map((s) => [s.streamId, s.revision])).toEqual([['stock-1', 1], ['order-o1', 0]]);
    const [reserved] = await store.readStream('stock-1', { fromRevision: 1 });
    const [opened] = await store.readStream('order-o1');
    expect(reserved.metadata).toEqual({ ...meta, schemaVersion: 1 });
    expect(opened.metadata).toEqual({ ...meta, schemaVersion: 2 });
    expect(result.position).toBe(opened.position);
    expect(opened.position).toBe(reserved.position + 1);
  });

  it('N concurrent reservations of the last unit: exactly one lands, whole; the others append nothing', async () => {
    const other = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          handleCommands(i % 2 ? store : other, meta, async (tx) => {
            const item = await tx.load('stock-1', stockAggregate);
            tx.decide(item, { type: 'Reserve', orderId: `o${i}`, units: 1 });
            tx.decide(tx.create(`order-o${i}`, orderAggregate), { type: 'Open', orderId: `o${i}` });
          }, { maxAttempts: 10 }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'CONFLICT' });
    } finally {
      await other.close();
    }
    const orders = await store.readAll({ filter: { types: ['order.opened'] } });
    const reservations = await store.readAll({ filter: { types: ['stock.reserved'] } });
    expect(orders).toHaveLength(1);
    expect(reservations.map((e) => (e.data as { orderId: string }).orderId)).toEqual([(orders[0].data as { orderId: string }).orderId]);
  });

  it('a conflict runs the work again on the new state, and a conflict that persists appends nothing at all', async () => {
    let runs = 0;
    // The order stream exists already: every attempt's `no_stream` append of it fails.
    await store.append('order-o9', [{ type: 'order.opened', data: { orderId: 'o9' }, metadata: { ...meta, schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
    await expect(
      handleCommands(store, meta, async (tx) => {
        runs += 1;
        const item = await tx.load('stock-1', stockAggregate);
        tx.decide(item, { type: 'Reserve', orderId: 'o9', units: 1 });
        tx.decide(tx.create('order-o9', orderAggregate), { type: 'Open', orderId: 'o9' });
      }, { maxAttempts: 3 }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(runs).toBe(3);
    expect(await store.readStream('stock-1')).toHaveLength(1); // the reservation was never appended
  });

  it('sees another workspace\'s stream as absent and never appends to it', async () => {
    await expect(
      handleCommands(store, { workspaceId: 'ws_2', actor: 'test' }, async (tx) => {
        const item = await tx.load('stock-1', stockAggregate);
        expect(item.revision).toBe(-1);
        tx.decide(item, { type: 'Reserve', orderId: 'o1', units: 1 });
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'not enough units' });
    await expect(
      handleCommands(store, { workspaceId: 'ws_2', actor: 'test' }, async (tx) => {
        tx.decide(await tx.load('stock-1', stockAggregate), { type: 'Add', units: 5 });
      }, { maxAttempts: 2 }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.readStream('stock-1')).toHaveLength(1);
  });

  it('decides nothing, appends nothing; a stream is loaded once per transaction', async () => {
    const head = await store.headPosition();
    const result = await handleCommands(store, meta, async (tx) => {
      await tx.load('stock-1', stockAggregate);
    });
    expect(result).toEqual({ value: undefined, streams: [], position: null, documents: null });
    expect(await store.headPosition()).toBe(head);
    await expect(
      handleCommands(store, meta, async (tx) => {
        await tx.load('stock-1', stockAggregate);
        await tx.load('stock-1', stockAggregate);
      }),
    ).rejects.toThrow(/already part of this transaction/);
  });

  it('per-decision metadata: events of several workspaces in one append, each stream checked against its own', async () => {
    await handleCommand(store, 'stock-2', stockAggregate, { type: 'Add', units: 1 }, { workspaceId: 'ws_2', actor: 'test' });
    await handleCommands(store, { actor: 'system' }, async (tx) => {
      for (const [stream, workspaceId] of [['stock-1', 'ws_1'], ['stock-2', 'ws_2']]) {
        const item = await tx.load(stream, stockAggregate, { workspaceId });
        tx.decide(item, { type: 'Add', units: 1 }, { metadata: { workspaceId, causationId: 'evt_1' } });
      }
    });
    const added = await store.readAll({ fromPosition: 2, filter: { types: ['stock.added'] } });
    expect(added.map((e) => [e.streamId, e.metadata.workspaceId, e.metadata.causationId])).toEqual([
      ['stock-1', 'ws_1', 'evt_1'],
      ['stock-2', 'ws_2', 'evt_1'],
    ]);
  });
});
