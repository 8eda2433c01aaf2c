// In-process costs that tests once bounded by the clock (issue 35: tests bound the work done —
// names compared, statements prepared — never the time; the times are measured here). On the
// built code (dist/, `npm run build` first), in a plain Node process (no jest vm context):
//
//   catalogue   all 20,444 catalogue names normalized; similar names within each set (per search);
//               10,000 typed names corrected against their sets; similar names across the whole
//               catalogue (per search, every 10th key)   — libs/catalog/src/performance.unit.spec.ts
//   csv         parseCsv of 10,000 intake rows          — libs/supply/src/intake/intake.csv.unit.spec.ts
//   statements  the instant-match-shaped find over seven expression indexes against a get by id,
//               as the read store runs it (planned once), and the same SQL with its limit bound
//               (`LIMIT ?`, planned again on each run)  — libs/platform/src/sqlite/statement-cache.int.spec.ts
//
// Each figure is the best and the median of BENCH_MICRO_ROUNDS rounds (default 5).
//
//   npm run build --silent && node bench/micro.mjs [catalogue|csv|statements ...]
//
// The thresholds the tests used to assert are printed beside the figures, as targets: under 2 s,
// under 1 ms, under 500 ms, under 20 ms, under 500 ms, a ratio under 4.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, StatementSync } from 'node:sqlite';

import { intEnv } from './lib/common.mjs';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const built = (path) => require(join(root, 'dist', path));
const ROUNDS = intEnv('BENCH_MICRO_ROUNDS', 5, 1);

/** Best and median of `ROUNDS` runs of `run` (ms each; `per` divides, for a per-operation figure). */
function measure(run, per = 1) {
  const times = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6 / per);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(times.length / 2)] };
}

async function measureAsync(run, per = 1) {
  const times = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6 / per);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(times.length / 2)] };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3));
const rows = [];
const row = (what, { best, median }, unit, target) => rows.push(`| ${what} | ${fmt(best)} ${unit} | ${fmt(median)} ${unit} | ${target} |`);

function catalogue() {
  const catalog = built('libs/catalog/src/index.js');
  const text = readFileSync(join(root, 'libs/catalog/data/cards.csv'), 'utf8').replace(/^\uFEFF/, '');
  const cards = catalog.parseCsv(text).map((r) => ({ name: r.name, setId: r.set_id }));
  catalog.normalizeCardName('warm up the catalogue index');

  row(`normalize all ${cards.length.toLocaleString('en')} catalogue names`, measure(() => cards.forEach((c) => catalog.normalizeCardName(c.name))), 'ms', '< 2 s');

  let searches = 0;
  for (const set of catalog.CATALOGUE_SETS) searches += (catalog.cardKeysOfSet(set.setId) ?? []).length;
  const withinSets = () => {
    for (const set of catalog.CATALOGUE_SETS) for (const key of catalog.cardKeysOfSet(set.setId) ?? []) catalog.similarCardNames(key, { setKey: set.setId });
  };
  row(`similar names within a set, per search (${searches.toLocaleString('en')} searches)`, measure(withinSets, searches), 'ms', '< 1 ms');

  // The test's typed names: two letters of the first long word swapped, one edit from only that name.
  const typed = [];
  for (let i = 0; typed.length < 10_000; i++) {
    const card = cards[i % cards.length];
    const word = /\p{L}{6,}/u.exec(card.name);
    if (!word) continue;
    const at = word.index + 1 + (i % (word[0].length - 2));
    const t = card.name.slice(0, at) + card.name[at + 1] + card.name[at] + card.name.slice(at + 2);
    if (catalog.keyOfCatalogueName(t) !== undefined) continue;
    const neighbours = catalog.keysOneEditFrom(catalog.cardNameKey(t));
    if (neighbours.length === 1 && neighbours[0] === catalog.cardNameKey(card.name)) typed.push([t, card.setId]);
  }
  row('correct 10,000 typed names against their sets', measure(() => typed.forEach(([t, setId]) => catalog.resolveCardName(t, setId))), 'ms', '< 500 ms');

  const keys = catalog.catalogueCardKeys().filter((_, i) => i % 10 === 0);
  row(`similar names across the catalogue, per search (${keys.length.toLocaleString('en')} searches)`, measure(() => keys.forEach((k) => catalog.similarCardNames(k)), keys.length), 'ms', '< 20 ms');
}

function csv() {
  const { parseCsv } = built('libs/supply/src/intake/intake.csv.js');
  const text = ['card,set,condition,price,qty', ...Array.from({ length: 10_000 }, (_, i) => `Card ${i},Base,NM,"$1,${i}.50",1`)].join('\r\n');
  if (parseCsv(text).rows.length !== 10_000) throw new Error('parseCsv read a wrong number of rows');
  row('parseCsv: 10,000 intake rows', measure(() => parseCsv(text)), 'ms', '< 500 ms');
}

async function statements() {
  const { SqliteReadStore } = built('libs/platform/src/read-store/sqlite-read-store.js');
  const dir = mkdtempSync(join(tmpdir(), 'bench-micro-'));
  const store = new SqliteReadStore(join(dir, 'read.db'));
  try {
    const fields = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const items = store.collection({
      name: 'items',
      indexes: fields.map((f, i) => ({ name: `by_${f}`, fields: [[f, 1], ...fields.slice(0, i).map((g) => [g, 1]), ['p', 1]] })),
    });
    await items.put({ id: 'x', a: 'a', b: 'b', p: 1 });
    const find = () => items.find({ a: 'z', b: 'y', c: 'w', p: { $lte: 10 } }, { sort: [['p', 1]], limit: 100 });
    const get = () => items.get('nope');
    // The find's SQL and values, as the store runs them (one run recorded).
    const all = StatementSync.prototype.all;
    let recorded = null;
    StatementSync.prototype.all = function recording(...values) {
      if (/\bLIMIT \d+/.test(this.sourceSQL)) recorded = { sql: this.sourceSQL, values };
      return all.apply(this, values);
    };
    try {
      await find();
    } finally {
      StatementSync.prototype.all = all;
    }
    const RUNS = 1500;
    const loop = (fn) => async () => {
      for (let i = 0; i < RUNS; i += 1) await fn();
    };
    await loop(find)();
    await loop(get)();
    const found = await measureAsync(loop(find), RUNS);
    const got = await measureAsync(loop(get), RUNS);
    row(`find over 7 expression indexes, per run (${RUNS} runs a round)`, found, 'ms', '');
    row('get by id, per run', got, 'ms', '');
    rows.push(`| find ÷ get | ${(found.best / got.best).toFixed(2)} | ${(found.median / got.median).toFixed(2)} | < 4 |`);
    if (recorded) {
      // The same SQL on a connection of its own: the limit a literal, then bound (`LIMIT ?`).
      const db = new DatabaseSync(join(dir, 'read.db'), { readOnly: true });
      try {
        const limit = Number(/\bLIMIT (\d+)/.exec(recorded.sql)[1]);
        const literal = db.prepare(recorded.sql);
        const bound = db.prepare(recorded.sql.replace(/\bLIMIT \d+/, 'LIMIT ?'));
        const { values } = recorded;
        row('the find\'s SQL alone, its limit a literal (planned once), per run', measure(() => {
          for (let i = 0; i < RUNS; i += 1) literal.all(...values);
        }, RUNS), 'ms', '');
        row('the same with `LIMIT ?` (planned again each run), per run', measure(() => {
          for (let i = 0; i < RUNS; i += 1) bound.all(...values, limit);
        }, RUNS), 'ms', '');
      } finally {
        db.close();
      }
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const SECTIONS = { catalogue, csv, statements };
const chosen = process.argv.slice(2);
for (const name of chosen) if (!(name in SECTIONS)) throw new Error(`unknown section ${name}: ${Object.keys(SECTIONS).join(', ')}`);
console.log(`node ${process.version}, ${ROUNDS} rounds; build in ${join(root, 'dist')}\n`);
console.log('| what | best | median | the test\'s old bound |');
console.log('|---|---:|---:|---|');
for (const name of chosen.length > 0 ? chosen : Object.keys(SECTIONS)) {
  await SECTIONS[name]();
  for (const line of rows.splice(0)) console.log(line);
}
