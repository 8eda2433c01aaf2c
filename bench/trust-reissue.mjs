// `node bench/trust-reissue.mjs`: what one credential reissue of a seller costs against how many
// trades (and credentials) the seller has had — issue 20's "a step's cost grows with the seller's
// history". In this process, on a build's own code (dist/, or BENCH_APP_ROOT's), on temp SQLite
// stores (event log + read store, as the app opens them, default pragmas):
//
// 1. for each size N of BENCH_REISSUE_SIZES (10,100,1000,3000): one seller, N trades appended to
//    the log (initiated, paid, shipped, completed) and applied through the trust projection, a
//    credential issued after every BENCH_REISSUE_EVERY (1) of them — as the scoring process manager
//    does under light load (one per batch with an outcome) — so the seller's trust record is as long
//    as it would be (not timed; by BENCH_SEED_ROOT's build when set — the same log and read model
//    whichever build writes them, and a build whose reissue grows with N seeds in quadratic time);
// 2. then BENCH_REISSUE_REPS (40) times, after BENCH_REISSUE_WARMUP (3) untimed: one more
//    completed trade applied (not timed), then timed — CredentialIssuer.issue (read the inputs,
//    score, sign both forms, append) and the trust projection applying what it appended (the
//    credential's registry entry, the seller; and, in builds before the inputs were made on
//    demand, its inputs document) in one read-store transaction;
// A warm-up pass at the smallest size comes first (not reported).
// 3. prints per N: median and p90 of issue, of project and of both (ms), the first issuance after
//    the seed (a cold process: CredentialIssuer new), and the ratio of the median to N = 10's;
//    writes BENCH_REISSUE_OUT (default bench/results/trust-reissue-latest.json).
//
// A micro-measure: one process, no HTTP, no other load; figures are for comparing builds and
// sizes on this machine, not a request's cost. Run it under the bench lock (`flock /tmp/bench.lock`).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(process.env.BENCH_APP_ROOT || join(BENCH_DIR, '..'));
const require = createRequire(join(ROOT, 'package.json'));
const sizes = (process.env.BENCH_REISSUE_SIZES || '10,100,1000,3000').split(',').map(Number);
const reps = Number(process.env.BENCH_REISSUE_REPS || 40);
const warmup = Number(process.env.BENCH_REISSUE_WARMUP || 3);
const every = Number(process.env.BENCH_REISSUE_EVERY || 1);
const out = resolve(process.env.BENCH_REISSUE_OUT || join(BENCH_DIR, 'results', 'trust-reissue-latest.json'));

const SEED_ROOT = resolve(process.env.BENCH_SEED_ROOT || ROOT);

require('reflect-metadata');
function build(root) {
  const dist = (p) => require(join(root, 'dist', p));
  return {
    ...dist('libs/platform/src/event-store/sqlite-event-store.js'),
    ...dist('libs/platform/src/read-store/sqlite-read-store.js'),
    ...dist('libs/platform/src/crypto/secret-box.js'),
    ...dist('libs/trust/src/trust.issuer.js'),
    ...dist('libs/trust/src/trust.projection.js'),
    ...dist('libs/trust/src/credential/ed25519.js'),
  };
}
const measured = build(ROOT);
const seeding = SEED_ROOT === ROOT ? measured : build(SEED_ROOT);
const { SqliteEventStore, SqliteReadStore, SecretBox, keyForms, publicKeyOf } = measured;

// The trust projection of a build: before b0467f9 it took the refs function first.
const projectionOf = (b, refs) => (b.trustProjection.length === 1 ? b.trustProjection(refs.refOf) : b.trustProjection());

const HOUR = 3_600_000;
const secretKey = new Uint8Array(32).fill(3);
const kid = keyForms(publicKeyOf(secretKey)).kid;
const seller = 'ws_bench_seller';

/** The commit of a build: its git HEAD, or a COMMIT file beside a frozen snapshot's dist/. */
function commitOf(root) {
  try {
    return readFileSync(join(root, 'COMMIT'), 'utf8').trim();
  } catch {
    try {
      return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  }
}

/** A completed trade's four events (as trading appends them; trust reads initiated and status changes). */
function tradeEvents(n, t0) {
  const tradeId = `trd_b${String(n).padStart(6, '0')}`;
  const at = (h) => new Date(t0 + h * HOUR).toISOString();
  const change = (from, to, h) => ({
    type: 'trade.status_changed',
    data: { tradeId, from, to, reason: null, reference: null, carrier: null, trackingNumber: null, refundDue: false, resolution: null, by: 'client', at: at(h) },
  });
  return {
    streamId: `trade-${tradeId}`,
    events: [
      {
        type: 'trade.initiated',
        data: {
          tradeId, inventoryItemId: `inv_${n}`, buyerRequestId: null, matchId: null, offerId: null, holdId: null, reservationId: tradeId,
          quantity: 1, amountMinor: 1000 + (n % 977), currency: 'USD', depositMinor: 0, initiatedAt: at(0),
        },
      },
      change('initiated', 'paid', 1 + (n % 5)),
      change('paid', 'shipped', 20 + (n % 50)),
      change('shipped', 'completed', 100 + (n % 30)),
    ].map((e) => ({ ...e, metadata: { workspaceId: seller, schemaVersion: 1 } })),
  };
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (ns) => Number(ns) / 1e6;

async function measure(n) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trust-reissue-'));
  const events = new SqliteEventStore(join(dir, 'events.db'));
  const reads = new SqliteReadStore(join(dir, 'read.db'));
  try {
    let now = Date.parse('2026-06-01T00:00:00.000Z');
    const clock = { now: () => new Date(now) };
    const config = { TRUST_CREDENTIAL_VALIDITY_DAYS: 90, PUBLIC_BASE_URL: 'https://trust.example', PORT: 3000 };
    const keyring = { signingKey: async () => ({ kid, secretKey }) };
    const workspaces = { byId: async (id) => ({ id, slug: 'bench-seller', name: 'Bench Seller' }) };
    const box = new SecretBox(Buffer.alloc(32, 7));
    // The seed's issuer and projection may be another build's (BENCH_SEED_ROOT): the log and the
    // read model they leave are the same whichever build writes them (the trust int spec pins it).
    let refs = new seeding.TrustRefs(box);
    let projection = projectionOf(seeding, refs);
    const types = new Set(projection.eventTypes);
    let issuer = new seeding.CredentialIssuer(events, reads, clock, config, keyring, workspaces, refs);
    let applied = 0;
    const project = async () => {
      const batch = (await events.readAll({ fromPosition: applied, limit: 100_000 })).filter((e) => e.position > applied);
      await reads.transaction(async () => {
        for (const e of batch) if (types.has(e.type)) await projection.apply(e, reads);
      });
      if (batch.length) applied = batch[batch.length - 1].position;
    };
    let trades = 0;
    const trade = async () => {
      const { streamId, events: es } = tradeEvents(trades, Date.parse('2025-01-01T00:00:00.000Z') + trades * 3 * HOUR);
      trades += 1;
      await events.append(streamId, es, { expectedRevision: 'no_stream' });
    };
    const issue = async () => {
      now += 60_000;
      return issuer.issue(seller, 'inputs');
    };

    // 1. The seed: N trades, a credential every `every` of them.
    const seedStart = process.hrtime.bigint();
    for (let i = 0; i < n; i += 1) {
      await trade();
      if ((i + 1) % every === 0 || i === n - 1) {
        await project();
        await issue();
        await project();
      }
    }
    const seedMs = ms(process.hrtime.bigint() - seedStart);
    const credentials = (await events.readStream(`trust-${seller}`)).filter((e) => e.type === 'trust.credential_issued').length;

    // The measured build from here on, new (a process started now): its first issuance, then the timed ones.
    refs = new measured.TrustRefs(box);
    projection = projectionOf(measured, refs);
    issuer = new measured.CredentialIssuer(events, reads, clock, config, keyring, workspaces, refs);
    await trade();
    await project();
    let t = process.hrtime.bigint();
    const cold = await issue();
    const coldIssue = ms(process.hrtime.bigint() - t);
    if (cold === null) throw new Error('the cold issuance issued nothing');
    await project();

    const issueMs = [];
    const projectMs = [];
    for (let r = 0; r < warmup + reps; r += 1) {
      await trade();
      await project();
      t = process.hrtime.bigint();
      const id = await issue();
      const t1 = process.hrtime.bigint();
      await project();
      const t2 = process.hrtime.bigint();
      if (id === null) throw new Error('a reissue issued nothing');
      if (r >= warmup) {
        issueMs.push(ms(t1 - t));
        projectMs.push(ms(t2 - t1));
      }
    }
    const both = issueMs.map((x, i) => x + projectMs[i]);
    return {
      trades: n,
      credentialsBefore: credentials,
      seedSeconds: +(seedMs / 1000).toFixed(1),
      coldIssueMs: +coldIssue.toFixed(3),
      issue: { p50: +quantile(issueMs, 0.5).toFixed(3), p90: +quantile(issueMs, 0.9).toFixed(3) },
      project: { p50: +quantile(projectMs, 0.5).toFixed(3), p90: +quantile(projectMs, 0.9).toFixed(3) },
      total: { p50: +quantile(both, 0.5).toFixed(3), p90: +quantile(both, 0.9).toFixed(3) },
    };
  } finally {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const started = new Date().toISOString();
const load = loadavg();
console.log(`trust reissue: build ${ROOT} (${commitOf(ROOT) ?? 'no git'}), seeded by ${SEED_ROOT}, node ${process.versions.node}, load ${load.map((x) => x.toFixed(2)).join(' ')}, reps ${reps}, a credential every ${every} trade(s)`);
await measure(Math.min(...sizes)); // a warm-up: the same work once, not reported (JIT, SQLite's first pages)
const results = [];
for (const n of sizes) {
  const r = await measure(n);
  results.push(r);
  console.log(`  N=${n}: seeded in ${r.seedSeconds} s (${r.credentialsBefore} credentials); cold ${r.coldIssueMs} ms; issue p50 ${r.issue.p50} / p90 ${r.issue.p90}; project p50 ${r.project.p50} / p90 ${r.project.p90}; total p50 ${r.total.p50} ms`);
}
const base = results[0].total.p50;
console.log('\n| trades (credentials) | issue p50 / p90 ms | project p50 / p90 ms | **total p50** ms | × smallest | cold first issue ms |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(`| ${r.trades} (${r.credentialsBefore}) | ${r.issue.p50} / ${r.issue.p90} | ${r.project.p50} / ${r.project.p90} | **${r.total.p50}** | ${(r.total.p50 / base).toFixed(2)} | ${r.coldIssueMs} |`);
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ started, finished: new Date().toISOString(), root: ROOT, commit: commitOf(ROOT), seedRoot: SEED_ROOT, seedCommit: commitOf(SEED_ROOT), node: process.versions.node, loadBefore: load, loadAfter: loadavg(), reps, warmup, every, results }, null, 2)}\n`);
console.log(`\nwrote ${out}`);
