// Summarises a V8 .cpuprofile (from `node --cpu-prof`): where the CPU time went, by function
// (self time) and by inclusive time of selected frames. Native calls (node:sqlite, JSON.parse…)
// have no frame of their own: their time shows as self time of the JS function that called them.
//
//   BENCH_ONLY=post-app BENCH_APP_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/run.mjs
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [topN]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [topN]\n');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Time per sample: timeDeltas[i] is the gap before sample i.
const selfUs = new Map();
let totalUs = 0;
for (let i = 0; i < profile.samples.length; i += 1) {
  const dt = profile.timeDeltas[i] ?? 0;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
  totalUs += dt;
}

const where = (cf) => {
  const url = cf.url ? cf.url.replace('file://', '') : '';
  const short = url.includes('node_modules/')
    ? url.slice(url.lastIndexOf('node_modules/') + 'node_modules/'.length)
    : url
      ? relative(process.cwd(), url)
      : '';
  return `${cf.functionName || '(anonymous)'} ${short ? `${short}:${cf.lineNumber + 1}` : ''}`.trim();
};

const idleNames = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
let idleUs = 0;
const byFn = new Map();
for (const [id, us] of selfUs) {
  const key = where(nodes.get(id).callFrame);
  byFn.set(key, (byFn.get(key) ?? 0) + us);
  if (nodes.get(id).callFrame.functionName === '(idle)') idleUs += us;
}

// Inclusive time per "bucket": the first frame on the stack (from the leaf up) that matches.
const buckets = [
  ['zod', (cf) => cf.url.includes('node_modules/zod/')],
  ['pino (logger)', (cf) => cf.url.includes('node_modules/pino')],
  ['@nestjs/cqrs', (cf) => cf.url.includes('node_modules/@nestjs/cqrs/')],
  ['@nestjs/core + common + platform-fastify', (cf) => /node_modules\/@nestjs\/(core|common|platform-fastify)\//.test(cf.url)],
  ['fastify + find-my-way + light-my-request etc.', (cf) => /node_modules\/(fastify|find-my-way|@fastify|avvio|fast-json-stringify|secure-json-parse)/.test(cf.url)],
  ['rxjs', (cf) => cf.url.includes('node_modules/rxjs/')],
  ['app code (dist/)', (cf) => cf.url.includes('/dist/')],
  ['node internals (http, net, streams, timers…)', (cf) => cf.url.startsWith('node:') || cf.url.startsWith('internal')],
  ['(garbage collector)', (cf) => cf.functionName === '(garbage collector)'],
  ['(program) / native', (cf) => cf.functionName === '(program)'],
  ['(idle)', (cf) => cf.functionName === '(idle)'],
];
const bucketUs = new Map(buckets.map(([name]) => [name, 0]));
let other = 0;
for (const [id, us] of selfUs) {
  let cur = id;
  let hit = null;
  while (cur !== undefined && !hit) {
    const cf = nodes.get(cur).callFrame;
    for (const [name, test] of buckets) {
      if (test(cf)) {
        hit = name;
        break;
      }
    }
    cur = parent.get(cur);
  }
  if (hit) bucketUs.set(hit, bucketUs.get(hit) + us);
  else other += us;
}

// Inclusive time of app functions (every app frame on the stack gets the sample once).
const inclusive = new Map();
for (const [id, us] of selfUs) {
  const seen = new Set();
  let cur = id;
  while (cur !== undefined) {
    const cf = nodes.get(cur).callFrame;
    if (cf.url.includes('/dist/')) {
      const key = where(cf);
      if (!seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      }
    }
    cur = parent.get(cur);
  }
}

const busyUs = totalUs - idleUs;
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us, of) => `${((100 * us) / of).toFixed(1).padStart(5)}%`;
console.log(`profile: ${(totalUs / 1e6).toFixed(1)} s sampled, busy ${(busyUs / 1e6).toFixed(1)} s (${pct(busyUs, totalUs)}), idle ${(idleUs / 1e6).toFixed(1)} s`);
console.log('\nbuckets (leaf-up: the first matching frame owns the sample; % of busy time):');
for (const [name, us] of [...bucketUs].sort((a, b) => b[1] - a[1])) {
  if (name === '(idle)') continue;
  console.log(`${ms(us)} ms ${pct(us, busyUs)}  ${name}`);
}
console.log(`${ms(other)} ms ${pct(other, busyUs)}  other`);
console.log(`\ntop ${top} functions by self time (% of busy time):`);
for (const [key, us] of [...byFn].sort((a, b) => b[1] - a[1]).filter(([k]) => !k.startsWith('(idle)')).slice(0, top)) {
  console.log(`${ms(us)} ms ${pct(us, busyUs)}  ${key}`);
}
console.log(`\ntop ${top} app (dist/) functions by inclusive time (% of busy time):`);
for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${ms(us)} ms ${pct(us, busyUs)}  ${key}`);
}
