// The workloads of `npm run bench:peer`, written once against a small adapter that each side
// implements (bench/peer/ours.mjs, bench/peer/emmett.mjs, bench/peer/raw.mjs), so both stores do
// exactly the same work. Each workload is bounded by a count and by a time (whichever comes first)
// and reports what it did per second of wall time.
//
// adapter = {
//   appendOne(streamId, event, expected) → next expected   (expected null: the stream must not exist)
//   appendMany(streamId, events, expected) → next expected
//   readAllPages(pageSize, onPage(events)) → events read   (the whole log, in pages, from the start)
//   consume({ processorId, batchSize, lastPosition, deadline, fold }) → { events, checkpoint }
//   head() → events in the log (a count, to verify)
// }

/** The event every workload appends: the shape of a small domain event, same bytes on both sides. */
export function benchEvent(n) {
  return {
    type: 'bench.item_listed',
    data: { n, itemId: `inv_${String(n).padStart(12, '0')}`, sku: `sku-${n % 997}`, priceMinor: 1000 + (n % 5000), currency: 'EUR', title: 'Near-mint holo, 1st edition' },
    metadata: { workspaceId: 'ws_bench', correlationId: `req_${n}`, actor: 'key_bench', schemaVersion: 1 },
  };
}

const now = () => performance.now();

function rate(count, ms) {
  return { count, seconds: Math.round(ms) / 1000, perSecond: ms > 0 ? Math.round((count / ms) * 1000) : 0 };
}

/** (1a) Single-event appends, one after another, each with the stream's expected revision. */
export async function appendSequential(adapter, { streams, max, seconds, prefix = 'seq' }) {
  const expected = new Array(streams).fill(null);
  const deadline = now() + seconds * 1000;
  const started = now();
  let done = 0;
  while (done < max && now() < deadline) {
    const s = done % streams;
    expected[s] = await adapter.appendOne(`${prefix}-${s}`, benchEvent(done), expected[s]);
    done += 1;
  }
  return rate(done, now() - started);
}

/** (1b) The same with `concurrency` writers at once, each on streams of its own (no conflicts). */
export async function appendConcurrent(adapter, { streams, max, seconds, concurrency, prefix = 'conc' }) {
  const perWriter = Math.max(1, Math.floor(streams / concurrency));
  const deadline = now() + seconds * 1000;
  const started = now();
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      const expected = new Array(perWriter).fill(null);
      for (let i = 0; done < max && now() < deadline; i += 1) {
        const s = i % perWriter;
        expected[s] = await adapter.appendOne(`${prefix}-${w}-${s}`, benchEvent(i), expected[s]);
        done += 1;
      }
    }),
  );
  return rate(done, now() - started);
}

/** (2) Appends of `size` events at once (events/s), each with the stream's expected revision. */
export async function appendBatches(adapter, { streams, size, max, seconds, prefix = 'batch' }) {
  const expected = new Array(streams).fill(null);
  const deadline = now() + seconds * 1000;
  const started = now();
  let batches = 0;
  while (batches < max && now() < deadline) {
    const s = batches % streams;
    const events = Array.from({ length: size }, (_, i) => benchEvent(batches * size + i));
    expected[s] = await adapter.appendMany(`${prefix}-${s}`, events, expected[s]);
    batches += 1;
  }
  return { ...rate(batches * size, now() - started), batches };
}

/** Fills a fresh log with `events` events (100-event appends over 100 streams): not measured. */
export async function seedLog(adapter, { events }) {
  const started = now();
  const expected = new Array(100).fill(null);
  for (let b = 0; b * 100 < events; b += 1) {
    const size = Math.min(100, events - b * 100);
    expected[b % 100] = await adapter.appendMany(`log-${b % 100}`, Array.from({ length: size }, (_, i) => benchEvent(b * 100 + i)), expected[b % 100]);
  }
  return { events, seconds: Math.round(now() - started) / 1000 };
}

/** (3) Reads the whole log from the start in pages, parsed into events (events/s); `passes` times or until `seconds`. */
export async function readAll(adapter, { pageSize, passes, seconds }) {
  const deadline = now() + seconds * 1000;
  const started = now();
  let read = 0;
  let completed = 0;
  let checksum = 0;
  while (completed < passes && (completed === 0 || now() < deadline)) {
    read += await adapter.readAllPages(pageSize, (page) => {
      for (const e of page) checksum += e.n;
    });
    completed += 1;
  }
  return { ...rate(read, now() - started), passes: completed, checksum };
}

/**
 * (4) A checkpointed consumer: starts from its stored checkpoint, folds every event into a
 * summary, stores its checkpoint with each batch; ends at the log's last event or at `seconds`.
 */
export async function consume(adapter, { lastPosition, batchSize, seconds, processorId = 'bench-consumer' }) {
  const totals = { events: 0, priceMinor: 0 };
  const fold = (e) => {
    totals.events += 1;
    totals.priceMinor += e.priceMinor;
  };
  const started = now();
  const result = await adapter.consume({ processorId, batchSize, lastPosition, deadline: started + seconds * 1000, fold });
  return { ...rate(totals.events, now() - started), storedCheckpoint: result.checkpoint, lastPosition, priceMinor: totals.priceMinor };
}
