// One side of `npm run bench:peer` at one durability, in a process of its own (so neither store
// warms or pollutes the other's heap and JIT): runs the workloads, prints one JSON line.
//
//   node bench/peer/side.mjs '{"side":"ours","synchronous":"NORMAL","dataDir":…,"appRoot":…,"peerDir":…,"settings":{…}}'
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';

import { machineBusySeconds } from '../lib/resources.mjs';
import { openEmmett } from './emmett.mjs';
import { openOurs } from './ours.mjs';
import { openRaw } from './raw.mjs';
import { appendBatches, appendConcurrent, appendSequential, consume, readAll, seedLog } from './workloads.mjs';

const WORKLOADS = {
  raw: ['appendSequential'],
  'raw-schema': ['appendSequential'],
  ours: ['appendSequential', 'appendConcurrent', 'appendBatches', 'readAll', 'consume'],
  'ours-batcher': ['appendConcurrent'],
  emmett: ['appendSequential', 'appendConcurrent', 'appendBatches', 'readAll', 'consume'],
};

function open(plan, dir) {
  mkdirSync(dir, { recursive: true });
  switch (plan.side) {
    case 'raw':
      return openRaw(dir, plan.synchronous);
    case 'raw-schema':
      return openRaw(dir, plan.synchronous, { schema: true, appRoot: plan.appRoot });
    case 'ours':
      return openOurs(plan.appRoot, dir, plan.synchronous);
    case 'ours-batcher':
      return openOurs(plan.appRoot, dir, plan.synchronous, { batcher: true });
    case 'emmett':
      return openEmmett(plan.peerDir, dir, plan.synchronous);
    default:
      throw new Error(`unknown side ${plan.side}`);
  }
}

/**
 * Runs the workload once briefly on streams (or a consumer) of its own, not measured, so both sides
 * are measured with warm JIT and caches; then measures it.
 */
async function warmedUp(workload, adapter, options, warmup) {
  let warmupCount = 0;
  if (warmup.seconds > 0) {
    warmupCount = (await workload(adapter, { ...options, ...warmup, max: Math.max(1, Math.ceil((options.max ?? 1) / 10)), passes: 1 })).count;
  }
  return { ...(await measured(() => workload(adapter, options))), warmupCount };
}

/** Runs `fn` and adds the CPU this process used and the share of the machine others used meanwhile. */
async function measured(fn) {
  const cpu0 = cpuUsage();
  const busy0 = machineBusySeconds();
  const t0 = performance.now();
  const result = await fn();
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuUsage(cpu0);
  const own = (cpu.user + cpu.system) / 1e6;
  const othersCores = (machineBusySeconds() - busy0 - own) / wall;
  return { ...result, cpuSeconds: Math.round(own * 1000) / 1000, othersCores: Math.round(Math.max(0, othersCores) * 100) / 100 };
}

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const s = plan.settings;
  const wanted = WORKLOADS[plan.side].filter((w) => s.workloads.includes(w));
  const out = { side: plan.side, synchronous: plan.synchronous, workloads: {}, checks: {} };

  // The append workloads share one fresh log; reading and consuming get a second one of a fixed size.
  const writes = await open(plan, join(plan.dataDir, 'writes'));
  out.version = writes.version;
  out.checks.synchronous = await writes.pragma('synchronous'); // 1 NORMAL, 2 FULL
  out.checks.journalMode = await writes.pragma('journal_mode');
  out.sqlite = await writes.sqliteVersion();
  let appended = 0;
  const common = { seconds: s.seconds };
  if (wanted.includes('appendSequential')) {
    out.workloads.appendSequential = await warmedUp(appendSequential, writes, { ...common, streams: s.streams, max: s.appends }, { seconds: s.warmup, prefix: 'warm-seq' });
    appended += out.workloads.appendSequential.count + out.workloads.appendSequential.warmupCount;
  }
  if (wanted.includes('appendConcurrent')) {
    const options = { ...common, streams: s.streams, max: s.appends, concurrency: s.concurrency };
    out.workloads.appendConcurrent = await warmedUp(appendConcurrent, writes, options, { seconds: s.warmup, prefix: 'warm-conc' });
    appended += out.workloads.appendConcurrent.count + out.workloads.appendConcurrent.warmupCount;
  }
  if (wanted.includes('appendBatches')) {
    const options = { ...common, streams: 100, size: s.batchSize, max: s.batches };
    out.workloads.appendBatches = await warmedUp(appendBatches, writes, options, { seconds: s.warmup, prefix: 'warm-batch' });
    appended += out.workloads.appendBatches.count + out.workloads.appendBatches.warmupCount;
  }
  out.checks.appendedAll = (await writes.head()) === appended; // every acknowledged append is in the log
  await writes.close();

  if (wanted.includes('readAll') || wanted.includes('consume')) {
    const log = await open(plan, join(plan.dataDir, 'log'));
    out.seed = await seedLog(log, { events: s.logEvents });
    const lastPosition = s.logEvents; // both logs start at position 1 and have no gaps
    if (wanted.includes('readAll')) {
      out.workloads.readAll = await warmedUp(readAll, log, { ...common, pageSize: s.pageSize, passes: s.readPasses }, { seconds: s.warmup });
      out.checks.readAllComplete = out.workloads.readAll.count === s.logEvents * out.workloads.readAll.passes;
    }
    if (wanted.includes('consume')) {
      const options = { ...common, lastPosition, batchSize: s.consumerBatch };
      out.workloads.consume = await warmedUp(consume, log, options, { seconds: s.warmup, processorId: 'warm-consumer' });
      // What a restart would resume from: the stored checkpoint must be where the consumer stopped.
      out.checks.checkpointStored = out.workloads.consume.storedCheckpoint === out.workloads.consume.count;
    }
    await log.close();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
