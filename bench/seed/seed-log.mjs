// Seeds a DATA_DIR's event log directly (no HTTP): inventory.created and buyer_request.created
// events decided by the app's own deciders, appended with the app's own SqliteEventStore in
// `appendMany` batches (one SQLite transaction per batch). The app then projects them when it
// starts, as it would after a restore or a rebuild. The workspaces (and their keys) must exist
// already: create them with the CLI first — the CLI catches projections up after each command, so
// running it after seeding would project the whole log in the CLI instead of the app.
//
//   node bench/seed/seed-log.mjs '<json plan>'        (Node 24; prints a JSON summary on stdout)
//
// plan = {
//   dataDir, appRoot?,               // appRoot: directory holding the build's dist/ (default: repo)
//   batchSize?: 1000,                // streams per appendMany
//   spanDays?: 30,                   // createdAt spread over the last spanDays, in log order
//   workspaces: [{ workspaceId, actor, items, requests, trades?, seed, skew?, interleave? }]
// }
//
// What each event is — exactly what the HTTP handlers would append for the same input:
// - inventory.created: `inventoryDecider.decide({ type: 'CreateInventoryItem', item, now })`, item =
//   the normalized display fields and `match` from @app/catalog `normalizeListing` (as
//   CreateInventoryItemHandler builds it), status `available`, `ingestion: null`;
// - buyer_request.created: `buyerRequestDecider.decide({ type: 'CreateBuyerRequest', criteria:
//   toCriteria(input), matches: [] … })` (matches are found later by reverse matching at start-up);
// - ids `inv_` / `br_` + ULID at the event's time; event ids UUIDs; metadata { workspaceId, actor,
//   correlationId, schemaVersion: 1 }. All drawn from the seeded PRNG: the same plan appends the
//   same content.
// - trades (optional, `trades` per workspace): settled trades on some of the workspace's items,
//   each step appended through the app's own trading write path (openTrade / decideOnTrade under
//   handleCommands) — see bench/seed/seed-trades.mjs. Each step goes into the log before the first
//   creation dated after it (so the log stays in time order); those left after the last creation
//   follow in batches of their own. A plan without trades appends exactly what it did before.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createGenerator, loadCatalog, prng } from './generator.mjs';
import { createTradeSeeder } from './seed-trades.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function uuidFrom(rnd) {
  const hex = [];
  for (let i = 0; i < 16; i += 1) hex.push(Math.floor(rnd() * 256));
  hex[6] = (hex[6] & 0x0f) | 0x40;
  hex[8] = (hex[8] & 0x3f) | 0x80;
  const h = hex.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export async function seedLog(plan) {
  const appRoot = resolve(plan.appRoot ?? ROOT);
  const require = createRequire(join(appRoot, 'package.json'));
  require('reflect-metadata');
  const dist = (p) => require(join(appRoot, 'dist', p));
  const { SqliteEventStore } = dist('libs/platform/src/event-store/sqlite-event-store.js');
  // The seed writes the log directly, as the contexts' own deciders would (internals on purpose).
  const { inventoryDecider } = dist('libs/supply/src/inventory/inventory.decider.js');
  const { inventoryStream } = dist('libs/supply/src/inventory/inventory.events.js');
  const { buyerRequestDecider } = dist('libs/demand/src/buyer-request/buyer-request.decider.js');
  const { buyerRequestStream } = dist('libs/demand/src/buyer-request/buyer-request.events.js');
  const { toCriteria } = dist('libs/demand/src/buyer-request/buyer-request.handlers.js');
  const { normalizeListing, normalizePrice } = dist('libs/catalog/src/index.js');
  const { monotonicFactory } = require('ulid');

  const batchSize = plan.batchSize ?? 1000;
  const spanMs = (plan.spanDays ?? 30) * 86_400_000;
  const catalog = loadCatalog(plan.catalogDir);
  const total = plan.workspaces.reduce((s, w) => s + w.items + w.requests, 0);
  const start = Date.now() - spanMs;
  const step = total > 0 ? spanMs / total : 0;

  let clock = start;
  const store = new SqliteEventStore(join(plan.dataDir, 'events.db'), { now: () => new Date(clock) });
  const withTrades = plan.workspaces.some((w) => (w.trades ?? 0) > 0);
  const trades = withTrades ? createTradeSeeder({ dist, require, end: start + spanMs, seed: plan.workspaces[0]?.seed ?? 1 }) : null;
  let tradeMs = 0;
  const headBefore = store.headPositionSync();
  const t0 = performance.now();
  let normalizeMs = 0;
  let appendMs = 0;
  let index = 0;
  const perWorkspace = [];

  /** The price as the inventory API stores it: integer minor units (catalog normalizePrice). */
  const minorOf = (amount) => {
    const n = normalizePrice(amount);
    if (!n.value) throw new Error(`unparsable generated price ${amount}`);
    return n.value.amountMinor;
  };

  for (const ws of plan.workspaces) {
    const gen = createGenerator(catalog, { seed: ws.seed, skew: ws.skew ?? 0 });
    const idRandom = prng(ws.seed ^ 0x5eed);
    const ulid = monotonicFactory(idRandom);
    const metadata = { workspaceId: ws.workspaceId, actor: ws.actor, correlationId: `bench-seed-${ws.seed}`, schemaVersion: 1 };
    let itemsLeft = ws.items;
    let requestsLeft = ws.requests;
    const counts = { workspaceId: ws.workspaceId, items: 0, requests: 0, firstPosition: null, lastPosition: null };
    if ((ws.trades ?? 0) > ws.items) throw new Error(`workspace ${ws.workspaceId}: ${ws.trades} trades need as many items (${ws.items})`);
    const picker = trades ? trades.workspace(ws, metadata) : null;
    if (picker) counts.trades = ws.trades ?? 0;
    while (itemsLeft + requestsLeft > 0) {
      const writes = [];
      while (writes.length < batchSize && itemsLeft + requestsLeft > 0) {
        // Interleaved in proportion to what is left, or all items first.
        const isItem = ws.interleave
          ? idRandom() * (itemsLeft + requestsLeft) < itemsLeft
          : itemsLeft > 0;
        const now = new Date(Math.round(start + step * index));
        index += 1;
        // The trade steps dated up to this creation go first (log order = time order).
        if (trades && trades.nextTime() <= now.getTime()) {
          const t0 = performance.now();
          await trades.runDue(now.getTime(), writes);
          tradeMs += performance.now() - t0;
        }
        const n0 = performance.now();
        if (isItem) {
          itemsLeft -= 1;
          const raw = gen.inventoryItem();
          const listing = normalizeListing(raw);
          const id = `inv_${ulid(now.getTime())}`;
          const item = {
            inventoryItemId: id,
            cardName: listing.cardName.value.name,
            setName: listing.setName.value.name,
            condition: listing.condition.value.label,
            priceMinor: minorOf(raw.price),
            currency: raw.currency,
            quantity: raw.quantity,
            status: 'available',
            sku: raw.sku,
            cardNumber: raw.cardNumber,
            notes: raw.notes,
            match: { ...listing.match },
            input: { cardName: raw.cardName, setName: raw.setName, condition: raw.condition },
            ingestion: null,
          };
          const events = inventoryDecider.decide({ type: 'CreateInventoryItem', item, now }, inventoryDecider.initialState);
          const write = {
            streamId: inventoryStream(id),
            expectedRevision: 'no_stream',
            events: events.map((e) => ({ id: uuidFrom(idRandom), type: e.type, data: e.data, metadata })),
          };
          writes.push(write);
          picker?.offer({ inventoryItemId: id, streamId: write.streamId, events: write.events, createdAtMs: now.getTime(), quantity: item.quantity });
          counts.items += 1;
        } else {
          requestsLeft -= 1;
          const raw = gen.buyerRequest();
          const input = {
            cardName: raw.cardName,
            setName: raw.setName,
            condition: raw.condition,
            maxPriceMinor: minorOf(raw.maxPrice),
            currency: raw.currency,
            source: raw.source,
          };
          const id = `br_${ulid(now.getTime())}`;
          const events = buyerRequestDecider.decide(
            {
              type: 'CreateBuyerRequest',
              buyerRequestId: id,
              criteria: toCriteria(input),
              input: { cardName: raw.cardName, setName: raw.setName, condition: raw.condition },
              matches: [],
              now,
            },
            buyerRequestDecider.initialState,
          );
          writes.push({
            streamId: buyerRequestStream(id),
            expectedRevision: 'no_stream',
            events: events.map((e) => ({ id: uuidFrom(idRandom), type: e.type, data: e.data, metadata })),
          });
          counts.requests += 1;
        }
        normalizeMs += performance.now() - n0;
      }
      clock = Math.round(start + step * index);
      const a0 = performance.now();
      const results = await store.appendMany(writes);
      appendMs += performance.now() - a0;
      counts.firstPosition ??= results[0].position;
      counts.lastPosition = results[results.length - 1].position;
      if (plan.progress) plan.progress(index, total);
    }
    perWorkspace.push(counts);
  }
  // The trade steps dated after the last creation, in batches of their own.
  while (trades && trades.pending > 0) {
    const writes = [];
    const t0 = performance.now();
    let last = clock;
    while (writes.length < batchSize && trades.pending > 0) last = await trades.runNext(writes);
    tradeMs += performance.now() - t0;
    clock = Math.round(last);
    const a0 = performance.now();
    await store.appendMany(writes);
    appendMs += performance.now() - a0;
  }
  // Leave a short WAL behind, as a long-running server would.
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const head = store.headPositionSync();
  await store.close();
  const seconds = (performance.now() - t0) / 1000;
  return {
    events: head - headBefore,
    headPosition: head,
    seconds,
    eventsPerSecond: (head - headBefore) / seconds,
    buildMs: Math.round(normalizeMs),
    appendMs: Math.round(appendMs),
    batchSize,
    workspaces: perWorkspace,
    ...(trades ? { tradeStepsMs: Math.round(tradeMs), trades: trades.summary() } : {}),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const plan = JSON.parse(process.argv[2] ?? '{}');
  if (!plan.dataDir || !Array.isArray(plan.workspaces)) {
    process.stderr.write("usage: node bench/seed/seed-log.mjs '{\"dataDir\":…,\"workspaces\":[…]}'\n");
    process.exit(2);
  }
  let lastReport = 0;
  plan.progress = (done, total) => {
    const now = Date.now();
    if (now - lastReport > 5000) {
      lastReport = now;
      process.stderr.write(`[seed] ${done} / ${total}\n`);
    }
  };
  seedLog(plan).then(
    (summary) => process.stdout.write(`${JSON.stringify(summary)}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
