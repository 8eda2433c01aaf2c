import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, StatementSync } from 'node:sqlite';

import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { limitClause, StatementCache } from './statement-cache';

describe('limitClause', () => {
  it('writes an integer ≥ 1 as a literal', () => {
    expect(limitClause(101)).toBe('LIMIT 101');
    expect(limitClause(2.9)).toBe('LIMIT 2');
    expect(limitClause(0)).toBe('LIMIT 1');
    expect(limitClause(-5)).toBe('LIMIT 1');
  });

  it('refuses what is not a number', () => {
    expect(() => limitClause(Number.NaN)).toThrow('Invalid LIMIT');
    expect(() => limitClause(Number.POSITIVE_INFINITY)).toThrow('Invalid LIMIT');
  });
});

describe('StatementCache', () => {
  it('prepares a text once and drops the least recently used past its capacity', () => {
    const db = new DatabaseSync(':memory:');
    const cache = new StatementCache(db, 2);
    const a = cache.get('SELECT 1');
    expect(cache.get('SELECT 1')).toBe(a);
    const b = cache.get('SELECT 2');
    expect(cache.get('SELECT 1')).toBe(a); // a is now the most recent
    cache.get('SELECT 3'); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.get('SELECT 1')).toBe(a);
    expect(cache.get('SELECT 2')).not.toBe(b);
    db.close();
  });
});

// Source files that hand SQL to node:sqlite. A bound LIMIT makes SQLite plan the statement again
// on every run (see statement-cache.ts); this keeps one from coming back.
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');
}

describe('SQL with a limit', () => {
  it('never binds the limit (LIMIT ?) in the product code', () => {
    const root = join(__dirname, '..', '..', '..', '..');
    const offenders = ['libs', 'apps']
      .flatMap((d) => sourceFiles(join(root, d)))
      .filter((file) => /\bLIMIT\s+\?(?!\?)/.test(withoutComments(readFileSync(file, 'utf8'))));
    expect(offenders).toEqual([]);
  });

  it('runs a find over many expression indexes without planning it again each time', async () => {
    // Planned once, by what the code does rather than how long it takes: the find's SQL is prepared
    // once for every run (the statement cache), its limit is a literal in that SQL (a bound LIMIT
    // would make SQLite plan it again on each run), and it binds only the query's values. What
    // planning costs (≈ 10× a get when planned on each run, ≈ 1–2× planned once) is measured by
    // `node bench/micro.mjs` (statements).
    const dir = mkdtempSync(join(tmpdir(), 'stmt-cache-'));
    const store = new SqliteReadStore(join(dir, 'read.db'));
    const prepare = jest.spyOn(DatabaseSync.prototype, 'prepare');
    try {
      const fields = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
      const items = store.collection<{ id: string; a: string; b: string; p: number }>({
        name: 'items',
        indexes: fields.map((f, i) => ({ name: `by_${f}`, fields: [[f, 1], ...fields.slice(0, i).map((g) => [g, 1] as [string, 1]), ['p', 1]] })),
      });
      await items.put({ id: 'x', a: 'a', b: 'b', p: 1 });
      const find = (a: string) => items.find({ a, b: 'y', c: 'w', p: { $lte: 10 } }, { sort: [['p', 1]], limit: 100 });
      await find('z');
      prepare.mockClear();
      const run = jest.spyOn(StatementSync.prototype, 'all');
      try {
        for (let i = 0; i < 1500; i += 1) await find(`z${i}`);
        expect(prepare).not.toHaveBeenCalled();
        const finds = run.mock.contexts.filter((stmt) => /\bLIMIT\b/.test(stmt.sourceSQL));
        expect(finds).toHaveLength(1500);
        expect(new Set(finds).size).toBe(1);
        expect(finds[0].sourceSQL).toMatch(/\bLIMIT \d+/);
        expect(finds[0].sourceSQL).not.toMatch(/\bLIMIT\s+\?/);
      } finally {
        run.mockRestore();
      }
    } finally {
      prepare.mockRestore();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
