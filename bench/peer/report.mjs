// The table `npm run bench:peer` prints: per workload and durability, ours and the peer per
// second, the ratio ours/peer, and the goal it is held to.

export const ROWS = [
  { key: 'appendSequential', label: '1a. single-event append, expected revision, sequential', unit: 'appends/s', goal: 1.5 },
  { key: 'appendConcurrent', label: '1b. single-event append, expected revision, 16 writers', unit: 'appends/s', goal: 1.5 },
  { key: 'appendBatches', label: '2. 100-event append, expected revision', unit: 'events/s', goal: 1.5 },
  { key: 'readAll', label: '3. read all (pages of 1,000)', unit: 'events/s', goal: 1.5 },
  { key: 'consume', label: '4. checkpointed consumer (batches of 100)', unit: 'events/s', goal: 1.5 },
];

/** Ours ≥ this many single-event appends/s with an expected revision at synchronous NORMAL. */
export const APPEND_GOAL_NORMAL = 20_000;

const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ratio = (a, b) => (a > 0 && b > 0 ? a / b : Number.NaN);

/** The figures of one side at one durability, by workload key. */
function figure(results, side, synchronous, key) {
  return results.find((r) => r.side === side && r.synchronous === synchronous)?.workloads?.[key]?.perSecond ?? Number.NaN;
}

/** Builds the comparison rows and the goal checks from the side results. */
export function compare(results, durabilities) {
  const rows = [];
  const misses = [];
  for (const synchronous of durabilities) {
    for (const row of ROWS) {
      const ours = figure(results, 'ours', synchronous, row.key);
      const peer = figure(results, 'emmett', synchronous, row.key);
      if (!Number.isFinite(ours) && !Number.isFinite(peer)) continue;
      const r = ratio(ours, peer);
      rows.push({ synchronous, workload: row.key, label: row.label, unit: row.unit, ours, peer, ratio: Math.round(r * 100) / 100, goal: row.goal, met: r >= row.goal });
      if (!(r >= row.goal)) misses.push(`${row.key} at ${synchronous}: ours/peer ${r.toFixed(2)} < ${row.goal}`);
    }
    const batcher = figure(results, 'ours-batcher', synchronous, 'appendConcurrent');
    if (Number.isFinite(batcher)) {
      const peer = figure(results, 'emmett', synchronous, 'appendConcurrent');
      rows.push({ synchronous, workload: 'appendConcurrentBatcher', label: '1b′. the same through our AppendBatcher (group commit)', unit: 'appends/s', ours: batcher, peer, ratio: Math.round(ratio(batcher, peer) * 100) / 100, goal: null, met: null });
    }
  }
  const normal = figure(results, 'ours', 'NORMAL', 'appendSequential');
  const appendGoal = { goal: APPEND_GOAL_NORMAL, ours: normal, met: normal >= APPEND_GOAL_NORMAL };
  if (Number.isFinite(normal) && !appendGoal.met) misses.push(`single-event appends at NORMAL: ${int(normal)}/s < ${int(APPEND_GOAL_NORMAL)}/s`);
  const ceilings = durabilities.map((synchronous) => ({
    synchronous,
    raw: figure(results, 'raw', synchronous, 'appendSequential'),
    rawSchema: figure(results, 'raw-schema', synchronous, 'appendSequential'),
    ours: figure(results, 'ours', synchronous, 'appendSequential'),
  }));
  return { rows, appendGoal, ceilings, misses };
}

export function markdown(comparison) {
  const lines = [
    '| synchronous | workload | unit | ours | Emmett | ours/Emmett | goal |',
    '| --- | --- | --- | ---: | ---: | ---: | --- |',
  ];
  for (const r of comparison.rows) {
    const goal = r.goal === null ? '—' : `≥ ${r.goal} ${r.met ? '✔' : '✘'}`;
    lines.push(`| ${r.synchronous} | ${r.label} | ${r.unit} | ${int(r.ours)} | ${int(r.peer)} | ${Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : 'n/a'} | ${goal} |`);
  }
  lines.push('', '| synchronous | single-event appends/s, sequential | raw node:sqlite (1-row commit) | raw, our table (INSERT only) | ours | ours/raw |', '| --- | --- | ---: | ---: | ---: | ---: |');
  for (const c of comparison.ceilings) {
    lines.push(`| ${c.synchronous} | | ${int(c.raw)} | ${int(c.rawSchema)} | ${int(c.ours)} | ${Number.isFinite(ratio(c.ours, c.raw)) ? ratio(c.ours, c.raw).toFixed(2) : 'n/a'} |`);
  }
  const g = comparison.appendGoal;
  lines.push('', `Goal: single-event appends with an expected revision at synchronous NORMAL ≥ ${int(g.goal)}/s — ours ${int(g.ours)}/s ${g.met ? '✔' : '✘'}`);
  return lines.join('\n');
}
