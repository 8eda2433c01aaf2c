// Seeding for the trading bench: N inventory items of quantity 1 through the intake push API (the
// fastest way in: one session, CSV rows added ≤ 10,000 per call, one push), then their ids in row
// order from the session's rows. Timed, so the report says what seeding cost (it is not measured).
import { api } from './app.mjs';
import { log, round, settings } from './config.mjs';

/**
 * `count` items of `card` ({cardName, setName}) in Near Mint, quantity 1, prices 1.00–100.00;
 * returns their ids and timings.
 */
export async function seedItems(app, count, card, name) {
  const t0 = performance.now();
  const session = await api(app, '/api/v1/ingestion/sessions', { method: 'POST', body: { name, source: 'bench:trading', defaultCurrency: 'USD' }, status: 201 });
  let added = 0;
  for (let from = 0; from < count; from += settings.intakeRowsPerCall) {
    const n = Math.min(settings.intakeRowsPerCall, count - from);
    const rows = Array.from({ length: n }, (_, i) => `${card.cardName},${card.setName},Near Mint,${(1 + ((from + i) % 9900) / 100).toFixed(2)},1`);
    const res = await api(app, `/api/v1/ingestion/sessions/${session.id}/items`, {
      method: 'POST',
      body: ['cardName,setName,condition,price,quantity', ...rows].join('\n'),
      contentType: 'text/csv',
      timeoutMs: 300_000,
    });
    added += res.added;
    if (res.counts.error > 0 || res.counts.warning > 0) throw new Error(`intake ${name}: rows with issues ${JSON.stringify(res.counts)}: ${JSON.stringify(res.rows.find((r) => r.issues.length)).slice(0, 500)}`);
  }
  const tAdded = performance.now();
  const pushed = await api(app, `/api/v1/ingestion/sessions/${session.id}/push`, { method: 'POST', timeoutMs: 300_000 });
  if (pushed.pushed !== count) throw new Error(`intake ${name}: pushed ${pushed.pushed} of ${count}: ${JSON.stringify(pushed).slice(0, 500)}`);
  const tPushed = performance.now();
  const ids = [];
  let cursor = null;
  do {
    const page = await api(app, `/api/v1/ingestion/sessions/${session.id}/rows?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const row of page.data) ids.push(row.inventoryItemId);
    cursor = page.nextCursor;
  } while (cursor);
  if (ids.length !== count || ids.some((id) => typeof id !== 'string')) throw new Error(`intake ${name}: ${ids.length} item ids for ${count} rows`);
  const seconds = (performance.now() - t0) / 1000;
  const timing = {
    items: count,
    addSeconds: round((tAdded - t0) / 1000, 2),
    pushSeconds: round((tPushed - tAdded) / 1000, 2),
    listIdsSeconds: round((performance.now() - tPushed) / 1000, 2),
    totalSeconds: round(seconds, 2),
  };
  log(`seeded ${count} items (${card.cardName} / ${card.setName}) in ${timing.totalSeconds} s (add ${timing.addSeconds}, push ${timing.pushSeconds}, ids ${timing.listIdsSeconds})`);
  return { ids, timing };
}

/** Hands out ids one at a time; says so (once) when there are none left. */
export function pool(ids, label) {
  let next = 0;
  return {
    take() {
      if (next < ids.length) return ids[next++];
      next += 1;
      return null;
    },
    get used() {
      return Math.min(next, ids.length);
    },
    get exhausted() {
      return next > ids.length;
    },
    label,
  };
}
