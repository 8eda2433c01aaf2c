// The write path's catalogue normalization (normalizeListing) on the scale bench's request and item
// bodies, timed in process for the build at argv[2] (a directory holding dist/): run it for two
// builds, alternated, to compare them. `node bench/normalize.mjs /work/main`
import { createRequire } from 'node:module';
import { createGenerator, loadCatalog } from './bench/seed/generator.mjs';
const root = process.argv[2];
const require = createRequire(import.meta.url);
const { normalizeListing } = require(`${root}/dist/libs/catalog/src/index.js`);
const gen = createGenerator(loadCatalog(), { seed: 7 });
const bodies = [];
for (let i = 0; i < 20000; i += 1) bodies.push(i % 2 ? gen.buyerRequest() : gen.inventoryItem());
for (const b of bodies.slice(0, 2000)) normalizeListing(b); // warm
const t = performance.now();
let corrected = 0;
for (let r = 0; r < 3; r += 1) for (const b of bodies) { const n = normalizeListing(b); if (n.cardName.changes?.some?.((c) => String(c).startsWith('corrected'))) corrected += 1; }
console.log(root, ((performance.now() - t) * 1000 / (3 * bodies.length)).toFixed(2), 'µs per normalizeListing; corrected', corrected / 3);
