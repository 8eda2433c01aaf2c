import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { readStoreContract } from '@app/testing/contracts/read-store.contract';

import type { CollectionSpec, Doc } from './read-store.port';
import { SqliteCollection, SqliteReadStore } from './sqlite-read-store';

async function tempFile(): Promise<{ path: string; removeDir: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'read-store-'));
  return { path: join(dir, 'read.db'), removeDir: () => rm(dir, { recursive: true, force: true }) };
}

readStoreContract('sqlite', async () => {
  const { path, removeDir } = await tempFile();
  return { store: new SqliteReadStore(path), cleanup: removeDir };
});

describe('SqliteReadStore', () => {
  let path: string;
  let removeDir: () => Promise<void>;
  let store: SqliteReadStore;

  beforeEach(async () => {
    ({ path, removeDir } = await tempFile());
    store = new SqliteReadStore(path);
  });
  afterEach(async () => {
    await store.close();
    await removeDir();
  });

  describe('declared indexes serve the declared query shapes', () => {
    const orders: CollectionSpec = {
      name: 'orders',
      indexes: [
        { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
        { name: 'by_status', fields: [['status', 1]] },
        { name: 'by_price', fields: [['price', 1]] },
      ],
    };
    let plan: SqliteCollection<Doc>['explain'];

    beforeEach(async () => {
      const c = store.collection<Doc>(orders);
      if (!(c instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
      for (let i = 0; i < 50; i += 1) {
        await c.put({ id: `o${i}`, workspaceId: `w${i % 3}`, createdAt: `2024-01-${10 + (i % 20)}`, status: `s${i % 4}`, price: i });
      }
      plan = (filter, options) => c.explain(filter, options);
    });

    it('a workspace-scoped listing, newest first, pages along the index without sorting', () => {
      const sort = [['createdAt', -1]] as const;
      const first = plan({ workspaceId: 'w' }, { sort });
      expect(first.join('\n')).toContain('USING INDEX c_orders__by_ws_created');
      expect(first.join('\n')).not.toContain('USE TEMP B-TREE FOR ORDER BY');

      const after = Buffer.from(JSON.stringify(['2024-01-15', 'o5'])).toString('base64url');
      const next = plan({ workspaceId: 'w' }, { sort, after });
      expect(next.join('\n')).toContain('USING INDEX c_orders__by_ws_created');
      expect(next.join('\n')).not.toContain('USE TEMP B-TREE FOR ORDER BY');
    });

    it.each([
      ['$in', { status: { $in: ['s1', 's2'] } }, 'c_orders__by_status'],
      ['$in with null', { status: { $in: ['s1', null] } }, 'c_orders__by_status'],
      ['numeric range', { price: { $gte: 10, $lt: 20 } }, 'c_orders__by_price'],
      ['open numeric range', { price: { $gt: 10 } }, 'c_orders__by_price'],
      ['open string range', { status: { $lte: 's2' } }, 'c_orders__by_status'],
    ])('%s on an indexed field uses its index', (_label, filter, index) => {
      expect(plan(filter).join('\n')).toContain(`USING INDEX ${index}`);
    });
  });

  it('rebuilds an index declared again under its name with other fields, and leaves an unchanged one alone', async () => {
    const spec = (fields: CollectionSpec['indexes'][number]['fields']): CollectionSpec => ({ name: 'redeclared', indexes: [{ name: 'by_key', fields }, { name: 'by_c', fields: [['c', 1]] }] });
    await store.collection<Doc>(spec([['a', 1]])).put({ id: 'x', a: 1, b: 2, c: 3 });
    await store.close();
    const { DatabaseSync } = await import('node:sqlite');
    const definitions = () => {
      const db = new DatabaseSync(path, { readOnly: true });
      const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'c_redeclared' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string; sql: string }>;
      db.close();
      return Object.fromEntries(rows.map((r) => [r.name, r.sql]));
    };
    const first = definitions();
    store = new SqliteReadStore(path);
    const again = store.collection<Doc>(spec([['a', 1], ['b', -1]]));
    expect(await again.get('x')).toEqual({ id: 'x', a: 1, b: 2, c: 3 });
    await store.close();
    const second = definitions();
    store = new SqliteReadStore(path);
    expect(first.c_redeclared__by_key).not.toContain('"f_b"');
    expect(second.c_redeclared__by_key).toContain('"f_b" DESC');
    expect(second.c_redeclared__by_c).toBe(first.c_redeclared__by_c);
    // And the query its new fields serve uses it.
    const c = store.collection<Doc>(spec([['a', 1], ['b', -1]]));
    if (!(c instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
    expect(c.explain({ a: 1 }, { sort: [['b', -1]] }).join('\n')).toContain('USING INDEX c_redeclared__by_key');
  });

  it('drops an index the collection no longer declares, and keeps the declared ones', async () => {
    const before: CollectionSpec = {
      name: 'shapes',
      indexes: [
        { name: 'by_a', fields: [['a', 1]] },
        { name: 'by_b', fields: [['b', 1]] },
      ],
    };
    await store.collection<Doc>(before).put({ id: 'x', a: 1, b: 2 });
    await store.close();
    store = new SqliteReadStore(path);
    const after = store.collection<Doc>({ name: 'shapes', indexes: [{ name: 'by_a', fields: [['a', 1]] }] });
    expect(await after.get('x')).toEqual({ id: 'x', a: 1, b: 2 });
    await store.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(path, { readOnly: true });
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'c_shapes'").all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
    db.close();
    store = new SqliteReadStore(path);
    expect(names.filter((n) => !n.startsWith('sqlite_autoindex'))).toEqual(['c_shapes__by_a']);
  });

  describe('the layout for writes: indexed fields as columns', () => {
    const requests: CollectionSpec = {
      name: 'requests',
      indexes: [
        { name: 'by_status', fields: [['status', 1], ['createdAt', 1]] },
        { name: 'by_card', fields: [['match.cardKey', 1], ['open', 1]] },
      ],
    };
    /** Every SQL text the store prepares (cached or not) from now on, until `spy.mockRestore()`. */
    const recordStatements = (on: SqliteReadStore) => {
      const issued: string[] = [];
      const prepare = on.prepare.bind(on);
      const spy = jest.spyOn(on, 'prepare').mockImplementation((db, sql) => {
        issued.push(sql);
        return prepare(db, sql);
      });
      return { issued, spy };
    };
    const raw = async (sql: string): Promise<Array<Record<string, unknown>>> => {
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        return db.prepare(sql).all() as Array<Record<string, unknown>>;
      } finally {
        db.close();
      }
    };

    it('keeps each indexed field in a column, as json_extract would read it, through inserts and updates', async () => {
      const c = store.collection<Doc>(requests);
      await c.put({ id: 'a', status: 'open', createdAt: '2026-01-01', match: { cardKey: 'k1' }, open: true, note: 'x' });
      await c.put({ id: 'a', status: 'closed', createdAt: '2026-01-01', match: { cardKey: 'k2' }, open: false, note: 'y' });
      await c.put({ id: 'b', status: 'open', createdAt: '2026-01-02', match: null, open: true });
      expect(await c.patch('b', { status: 'held' })).toBe(true);
      const rows = await raw(
        `SELECT id, "f_status" AS s, "f_createdAt" AS at, "f_match.cardKey" AS k, "f_open" AS o,
                json_extract(doc, '$.status') IS "f_status" AND json_extract(doc, '$.match.cardKey') IS "f_match.cardKey"
                AND json_extract(doc, '$.open') IS "f_open" AS same
         FROM c_requests ORDER BY id`,
      );
      expect(rows).toEqual([
        { id: 'a', s: 'closed', at: '2026-01-01', k: 'k2', o: 0, same: 1 },
        { id: 'b', s: 'held', at: '2026-01-02', k: null, o: 1, same: 1 },
      ]);
      expect((await c.find({ status: 'open' })).items).toEqual([]);
      expect((await c.find({ 'match.cardKey': 'k2', open: false })).items.map((d) => d.id)).toEqual(['a']);
    });

    it('an update sets only the columns whose value changed, so SQLite rewrites no index when none did', async () => {
      const c = store.collection<Doc>(requests);
      await c.put({ id: 'a', status: 'open', createdAt: '2026-01-01', match: { cardKey: 'k1' }, open: true, note: 'x' });
      const { issued, spy } = recordStatements(store);
      try {
        await c.put({ id: 'a', status: 'open', createdAt: '2026-01-01', match: { cardKey: 'k1' }, open: true, note: 'changed' });
        await c.put({ id: 'a', status: 'held', createdAt: '2026-01-01', match: { cardKey: 'k1' }, open: true, note: 'changed' });
      } finally {
        spy.mockRestore();
      }
      const updates = issued.filter((sql) => sql.startsWith('UPDATE'));
      expect(updates).toEqual(['UPDATE "c_requests" SET doc = ? WHERE id = ?', 'UPDATE "c_requests" SET doc = ?, "f_status" = ? WHERE id = ?']);
      // SQLite's program for the first writes no index entry (IdxInsert); the second writes by_status's.
      const opcodes = (sql: string) => (store.writer.prepare(`EXPLAIN ${sql}`).all() as Array<{ opcode: string; p1: number }>).map((r) => r.opcode);
      expect(opcodes(updates[0])).not.toContain('IdxInsert');
      expect(opcodes(updates[1]).filter((o) => o === 'IdxInsert')).toHaveLength(1);
      expect(await c.get('a')).toMatchObject({ status: 'held', note: 'changed' });
    });

    it('inside a transaction, writes back what it read without reading the row again, even when the caller changed the document read', async () => {
      const c = store.collection<Doc>(requests);
      await c.put({ id: 'a', status: 'open', createdAt: '2026-01-01', match: { cardKey: 'k1' }, open: true });
      const { issued, spy } = recordStatements(store);
      try {
        await store.transaction(async () => {
          const [a] = await c.getMany(['a', 'new']);
          a.status = 'held'; // a projection changing the document it was handed, on its way to put
          await c.put(a);
          await c.put({ id: 'new', status: 'open', createdAt: '2026-01-02', open: false });
          await c.put({ id: 'new', status: 'closed', createdAt: '2026-01-02', open: false });
        });
      } finally {
        spy.mockRestore();
      }
      expect(issued.filter((sql) => sql.startsWith('SELECT "f_'))).toEqual([]);
      expect(issued.filter((sql) => sql.startsWith('UPDATE'))).toEqual([
        'UPDATE "c_requests" SET doc = ?, "f_status" = ? WHERE id = ?',
        'UPDATE "c_requests" SET doc = ?, "f_status" = ? WHERE id = ?',
      ]);
      expect((await c.find({ status: 'held' })).items.map((d) => d.id)).toEqual(['a']);
      expect((await c.find({ status: 'closed', open: false })).items.map((d) => d.id)).toEqual(['new']);
      expect((await c.find({ status: 'open' })).items).toEqual([]);
    });

    it('moves a table of the older layout (expression indexes over the document) to columns, data kept', async () => {
      await store.close();
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(path);
      db.exec('CREATE TABLE "c_requests" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
      db.exec(`CREATE INDEX "c_requests__by_status" ON "c_requests" (json_extract(doc, '$.status') ASC, json_extract(doc, '$.createdAt') ASC)`);
      const insert = db.prepare('INSERT INTO "c_requests" (id, doc) VALUES (?, ?)');
      insert.run('a', JSON.stringify({ id: 'a', status: 'open', createdAt: '2026-01-02', match: { cardKey: 'k1' }, open: true }));
      insert.run('b', JSON.stringify({ id: 'b', status: 'open', createdAt: '2026-01-01', open: false }));
      db.close();
      store = new SqliteReadStore(path);
      const c = store.collection<Doc>(requests);
      if (!(c instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
      expect((await c.find({ status: 'open' }, { sort: [['createdAt', 1]] })).items.map((d) => d.id)).toEqual(['b', 'a']);
      expect((await c.find({ 'match.cardKey': 'k1', open: true })).items.map((d) => d.id)).toEqual(['a']);
      expect(c.explain({ status: 'open' }, { sort: [['createdAt', 1]] }).join('\n')).toContain('USING INDEX c_requests__by_status');
      const indexes = await raw("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'c_requests' AND sql IS NOT NULL");
      expect(indexes.map((r) => r.sql).join('\n')).not.toContain('json_extract');
    });

    it('drops a column no index names any more, and fills it afresh when one names it again', async () => {
      const withCard = store.collection<Doc>(requests);
      await withCard.put({ id: 'a', status: 'open', createdAt: '2026-01-01', match: { cardKey: 'k1' }, open: true });
      await store.close();
      store = new SqliteReadStore(path);
      const without: CollectionSpec = { name: 'requests', indexes: [requests.indexes[0]] };
      await store.collection<Doc>(without).put({ id: 'a', status: 'open', createdAt: '2026-01-01', match: { cardKey: 'k2' }, open: false });
      await store.close();
      expect(Object.keys((await raw('SELECT * FROM c_requests'))[0])).toEqual(['id', 'doc', 'f_status', 'f_createdAt']);
      store = new SqliteReadStore(path);
      const again = store.collection<Doc>(requests);
      expect((await again.find({ 'match.cardKey': 'k2', open: false })).items.map((d) => d.id)).toEqual(['a']);
      expect((await again.find({ 'match.cardKey': 'k1' })).items).toEqual([]);
    });
  });

  it('a collection first opened while another context holds a transaction survives its rollback', async () => {
    const other = store.collection<Doc>({ name: 'other', indexes: [] });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const failing = store.transaction(async () => {
      await other.put({ id: 'x' });
      wrote();
      await gate;
      throw new Error('boom');
    });
    await written;
    const late = store.collection<Doc>({ name: 'late', indexes: [{ name: 'by_n', fields: [['n', 1]] }] });
    const counting = late.count({}); // must wait for the table, not fail on it
    release();
    await expect(failing).rejects.toThrow('boom');
    expect(await counting).toBe(0);
    await late.put({ id: 'y', n: 1 });
    expect(await late.find({ n: 1 })).toStrictEqual({ items: [{ id: 'y', n: 1 }], nextCursor: null });
  });

  it('work a transaction left running after it ended does not join the next transaction', async () => {
    const c = store.collection<Doc>({ name: 'leaks', indexes: [] });
    let fire!: () => void;
    const fired = new Promise<void>((resolve) => (fire = resolve));
    let leaked!: Promise<void>;
    await store.transaction(async () => {
      leaked = fired.then(() => c.put({ id: 'leaked' })); // runs in this transaction's async context
    });
    const failing = store.transaction(async () => {
      await c.put({ id: 'rolled-back' });
      fire();
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    await leaked;
    expect(await c.getMany(['leaked', 'rolled-back'])).toStrictEqual([{ id: 'leaked' }]);
  });

  it('a second instance on the same file (another process) sees committed writes only', async () => {
    const spec: CollectionSpec = { name: 'shared', indexes: [] };
    const other = new SqliteReadStore(path);
    try {
      const mine = store.collection<Doc & { n: number }>(spec);
      const theirs = other.collection<Doc & { n: number }>(spec);
      await mine.put({ id: 'a', n: 1 });
      expect(await theirs.get('a')).toStrictEqual({ id: 'a', n: 1 });

      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const running = store.transaction(async () => {
        await mine.put({ id: 'b', n: 2 });
        wrote();
        await gate;
      });
      await written;
      expect(await theirs.count({})).toBe(1);
      release();
      await running;
      expect(await theirs.find({}, { sort: [['n', -1]] })).toStrictEqual({
        items: [
          { id: 'b', n: 2 },
          { id: 'a', n: 1 },
        ],
        nextCursor: null,
      });
      await theirs.put({ id: 'c', n: 3 });
      expect(await mine.count({})).toBe(3);
    } finally {
      await other.close();
    }
  });
});
