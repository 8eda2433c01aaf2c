// Inventory over HTTP against the real app: normalization on create and update, list filters,
// sale-state transitions, unit counts under reservations (made through supply's contract, as
// trading will) and delete. Scopes, isolation and refused input: inventory-access.e2e.spec.ts.
import { join } from 'node:path';

import { handleCommands, type Transaction } from '@app/platform/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';

import { loadReservableItem, type ReservableItem } from '../libs/supply/src/inventory/inventory.reservation';
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { type ErrorBody, inventoryCalls, type Item, type List, messy } from './support/inventory';

describe('inventory (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let workspaceId: string;
  const { create, patch } = inventoryCalls(() => app, () => key);

  beforeAll(async () => {
    app = await startApp();
    ({ apiKey: key, id: workspaceId } = await createWorkspace(app.dataDir, 'acme'));
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('normalizes what the seller typed, says what it changed, and reads back at once', async () => {
    const created = await create({ ...messy, sku: 'CHZ-1', cardNumber: '4/102', notes: 'corner wear' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^inv_[0-9A-Z]{26}$/),
      cardName: 'Charizard',
      setName: 'Base',
      condition: 'Near Mint',
      price: 450.5,
      currency: 'USD',
      quantity: 1,
      availableQuantity: 1,
      reservedQuantity: 0,
      soldQuantity: 0,
      status: 'available',
      sku: 'CHZ-1',
      cardNumber: '4/102',
      notes: 'corner wear',
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      normalization: {
        cardName: expect.objectContaining({ input: 'charizard', recognized: true }),
        setName: expect.objectContaining({ input: 'base set', recognized: true }),
        condition: expect.objectContaining({ input: 'nm', recognized: true }),
      },
    });
    expect(created.body.normalization?.condition?.changes.length).toBeGreaterThan(0);

    const read = await http<Item>(app.url, 'GET', `/api/v1/inventory/${created.body.id}`, { key });
    expect(read.status).toBe(200);
    const { normalization: _normalization, ...item } = created.body;
    expect(read.body).toEqual(item);
  });

  it('keeps an unknown set as given and flags it instead of dropping it', async () => {
    const created = await create({ ...messy, setName: 'Jungel Expansion Zz' });
    expect(created.status).toBe(201);
    expect(created.body.setName).toContain('Jungel');
    expect(created.body.normalization?.setName).toMatchObject({ recognized: false });
    expect(created.body.normalization?.setName?.warnings.length).toBeGreaterThan(0);
  });

  it('lists newest first and filters by status, normalized names, price range and currency', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'filters');
    const add = async (body: Record<string, unknown>) => {
      const res = await create(body, apiKey);
      expect(res.status).toBe(201);
      return res.body.id;
    };
    const a = await add({ cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 100 });
    const b = await add({ cardName: 'Blastoise', setName: 'base set', condition: 'LP', price: 50 });
    const c = await add({ cardName: 'charizard', setName: 'Jungle', condition: 'NM', price: 300, currency: 'eur' });
    const d = await add({ cardName: 'CHARIZARD', setName: 'Base', condition: 'PSA 9', price: 1000 });
    expect((await patch(d, { status: 'sold' }, apiKey)).status).toBe(200);

    const ids = async (query: string): Promise<string[]> => {
      const res = await http<List>(app.url, 'GET', `/api/v1/inventory${query}`, { key: apiKey });
      expect(res.status).toBe(200);
      return res.body.data.map((item) => item.id);
    };
    expect(await ids('')).toEqual([d, c, b, a]);
    expect(await ids('?cardName=charizard')).toEqual([d, c, a]);
    expect(await ids('?cardName=%20CHARIZARD%20')).toEqual([d, c, a]);
    expect(await ids('?setName=base%20set')).toEqual([d, b, a]);
    expect(await ids('?cardName=Charizard&setName=Base')).toEqual([d, a]);
    expect(await ids('?status=sold')).toEqual([d]);
    expect(await ids('?status=available')).toEqual([c, b, a]);
    expect(await ids('?minPrice=100&maxPrice=300')).toEqual([c, a]);
    expect(await ids('?minPrice=100.01')).toEqual([d, c]);
    expect(await ids('?maxPrice=99.99')).toEqual([b]);
    expect(await ids('?currency=EUR')).toEqual([c]);
    expect(await ids('?currency=usd&cardName=charizard&status=available')).toEqual([a]);
    expect(await ids('?cardName=Pikachu')).toEqual([]);

    const first = await http<List>(app.url, 'GET', '/api/v1/inventory?limit=2&cardName=charizard', { key: apiKey });
    expect(first.body.data.map((i) => i.id)).toEqual([d, c]);
    const second = await http<List>(
      app.url,
      'GET',
      `/api/v1/inventory?limit=2&cardName=charizard&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
      { key: apiKey },
    );
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: a })], nextCursor: null });
  });

  it.each([
    ['a bad status', '?status=lost', 'status'],
    ['a price with 3 decimals', '?minPrice=1.234', 'minPrice'],
    ['a price that is not a number', '?maxPrice=abc', 'maxPrice'],
    ['a negative price', '?minPrice=-1', 'minPrice'],
    ['a bad currency', '?currency=DOLLARS', 'currency'],
    ['a bad limit', '?limit=0', 'limit'],
  ])('rejects a listing with %s (400 VALIDATION_FAILED)', async (_label, query, path) => {
    const res = await http<ErrorBody>(app.url, 'GET', `/api/v1/inventory${query}`, { key });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details?.issues?.map((i) => i.path)).toContain(path);
  });

  it('updates price and fields, re-normalizes changed names, and a no-op changes nothing', async () => {
    const { body: item } = await create(messy);
    const repriced = await patch(item.id, { price: 399.99, notes: 'priced to sell', quantity: 3 });
    expect(repriced.status).toBe(200);
    expect(repriced.body).toMatchObject({ id: item.id, price: 399.99, notes: 'priced to sell', quantity: 3, availableQuantity: 3, cardName: 'Charizard', normalization: {} });
    expect(repriced.body.updatedAt >= item.updatedAt).toBe(true);
    expect(repriced.body.createdAt).toBe(item.createdAt);

    const renamed = await patch(item.id, { cardName: 'blastoise', condition: 'lightly played' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ cardName: 'Blastoise', setName: 'Base', condition: 'Lightly Played' });
    expect(Object.keys(renamed.body.normalization ?? {}).sort()).toEqual(['cardName', 'condition']);
    expect(renamed.body.normalization?.cardName?.input).toBe('blastoise');
    const byNewName = await http<List>(app.url, 'GET', '/api/v1/inventory?cardName=BLASTOISE&limit=100', { key });
    expect(byNewName.body.data.map((i) => i.id)).toContain(item.id);

    const cleared = await patch(item.id, { notes: null, sku: null });
    expect(cleared.body).toMatchObject({ notes: null, sku: null });

    const same = await patch(item.id, { price: 399.99, cardName: 'Blastoise' });
    expect(same.status).toBe(200);
    expect(same.body.updatedAt).toBe(cleared.body.updatedAt);

    const read = await http<Item>(app.url, 'GET', `/api/v1/inventory/${item.id}`, { key });
    expect(read.body).toMatchObject({ price: 399.99, quantity: 3, notes: null, cardName: 'Blastoise' });
  });

  it('moves through sale states; sold is final (409 INVALID_TRANSITION)', async () => {
    const { body: item } = await create(messy);
    // Set aside by hand: nothing left to reserve.
    expect((await patch(item.id, { status: 'reserved' })).body).toMatchObject({ status: 'reserved', availableQuantity: 0, reservedQuantity: 0 });
    expect((await patch(item.id, { status: 'available' })).body).toMatchObject({ status: 'available', availableQuantity: 1 });
    expect((await patch(item.id, { status: 'withdrawn' })).body).toMatchObject({ status: 'withdrawn', availableQuantity: 0 });

    const fromWithdrawn = await patch(item.id, { status: 'sold' });
    expect(fromWithdrawn.status).toBe(409);
    expect(fromWithdrawn.body.code).toBe('INVALID_TRANSITION');

    expect((await patch(item.id, { status: 'available' })).body.status).toBe('available');
    expect((await patch(item.id, { status: 'sold' })).body.status).toBe('sold');
    const relist = await patch(item.id, { status: 'available' });
    expect(relist.status).toBe(409);
    expect(relist.body).toEqual({ code: 'INVALID_TRANSITION', message: expect.stringContaining('sold'), details: expect.any(Object) });
    expect((await http<Item>(app.url, 'GET', `/api/v1/inventory/${item.id}`, { key })).body.status).toBe('sold');
  });

  it('counts units under reservations: the status follows them, and the seller cannot pull reserved units away', async () => {
    const { body: item } = await create({ ...messy, quantity: 2 });
    // What trading does inside its own transaction, from another process on the same log.
    const log = new SqliteEventStore(join(app.dataDir, 'events.db'));
    const now = new Date();
    const act = (work: (reservable: ReservableItem, tx: Transaction) => void) =>
      handleCommands(log, { workspaceId, actor: 'test:trading' }, async (tx) => {
        const reservable = await loadReservableItem(tx, workspaceId, item.id);
        if (!reservable) throw new Error('no item');
        work(reservable, tx);
      });
    const read = () => http<Item>(app.url, 'GET', `/api/v1/inventory/${item.id}`, { key });
    const until = async (expected: Partial<Item>) => {
      const deadline = Date.now() + 20_000; // only catches a hang
      for (;;) {
        const { body } = await read();
        if (Object.entries(expected).every(([k, v]) => body[k as keyof Item] === v) || Date.now() > deadline) return body;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    try {
      await act((r, tx) => r.reserve(tx, 'rsv_1', 1, 'hld_1', now));
      // 2 units, 1 reserved: still available (and listed and matched as such), with 1 left.
      expect(await until({ reservedQuantity: 1 })).toMatchObject({ status: 'available', quantity: 2, availableQuantity: 1, reservedQuantity: 1, soldQuantity: 0 });
      const available = await http<List>(app.url, 'GET', '/api/v1/inventory?status=available&limit=100', { key });
      expect(available.body.data.map((i) => i.id)).toContain(item.id);

      await act((r, tx) => r.reserve(tx, 'rsv_2', 1, 'hld_2', now));
      expect(await until({ reservedQuantity: 2 })).toMatchObject({ status: 'reserved', availableQuantity: 0, reservedQuantity: 2 });

      const withdraw = await patch(item.id, { status: 'withdrawn' });
      expect(withdraw.status).toBe(409);
      expect(withdraw.body).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('2 reservations'), details: { reservations: 2, reservedQuantity: 2 } });
      const remove = await http<ErrorBody>(app.url, 'DELETE', `/api/v1/inventory/${item.id}`, { key });
      expect(remove.status).toBe(409);
      expect(remove.body).toMatchObject({ code: 'CONFLICT', details: { reservations: 2 } });
      const shrink = await patch(item.id, { quantity: 1 });
      expect(shrink.status).toBe(409);
      expect(shrink.body).toMatchObject({ code: 'INVALID_TRANSITION', details: { minimum: 2 } });
      const relist = await patch(item.id, { status: 'available' });
      expect(relist.status).toBe(409);
      expect(relist.body.code).toBe('INVALID_TRANSITION');
      // More stock frees units: available again; a reprice is still the seller's.
      expect((await patch(item.id, { quantity: 3, price: 440 })).body).toMatchObject({ status: 'available', quantity: 3, availableQuantity: 1, price: 440 });

      await act((r, tx) => r.sell(tx, 'rsv_1', now));
      await act((r, tx) => r.release(tx, 'rsv_2', 'hold_expired', now));
      expect(await until({ soldQuantity: 1, reservedQuantity: 0 })).toMatchObject({ status: 'available', availableQuantity: 2, reservedQuantity: 0, soldQuantity: 1 });
      // No reservations left: the seller's moves are back.
      expect((await patch(item.id, { status: 'withdrawn' })).body).toMatchObject({ status: 'withdrawn', availableQuantity: 0, soldQuantity: 1 });
    } finally {
      await log.close();
    }
  });

  it('deletes Stripe-style; then the item is gone everywhere (404)', async () => {
    const { body: item } = await create(messy);
    const deleted = await http(app.url, 'DELETE', `/api/v1/inventory/${item.id}`, { key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: item.id, deleted: true });

    for (const [method, body] of [['GET', undefined], ['PATCH', { price: 1 }], ['DELETE', undefined]] as const) {
      const res = await http<ErrorBody>(app.url, method, `/api/v1/inventory/${item.id}`, { key, body });
      expect({ method, status: res.status, code: res.body.code }).toEqual({ method, status: 404, code: 'NOT_FOUND' });
    }
    const list = await http<List>(app.url, 'GET', '/api/v1/inventory?limit=100', { key });
    expect(list.body.data.map((i) => i.id)).not.toContain(item.id);
  });
});
