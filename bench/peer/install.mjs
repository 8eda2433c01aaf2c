// Installs bench/peer (the peers `bench:peer` and `bench:peer-stack` measure ours against) from its
// lockfile, once: `npm ci` there, whose native sqlite3 builds from source (~2 min; python3, make, g++).
// The product's `npm ci` never installs it and the product never imports it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PEER_DIR = dirname(fileURLToPath(import.meta.url));

/** Every devDependency of bench/peer/package.json at its locked version, and sqlite3's built addon. */
function installed() {
  const lock = JSON.parse(readFileSync(join(PEER_DIR, 'package-lock.json'), 'utf8'));
  const wanted = Object.keys(JSON.parse(readFileSync(join(PEER_DIR, 'package.json'), 'utf8')).devDependencies);
  for (const name of wanted) {
    const file = join(PEER_DIR, 'node_modules', name, 'package.json');
    if (!existsSync(file)) return false;
    if (JSON.parse(readFileSync(file, 'utf8')).version !== lock.packages[`node_modules/${name}`]?.version) return false;
  }
  return existsSync(join(PEER_DIR, 'node_modules/sqlite3/build/Release/node_sqlite3.node'));
}

export function ensurePeer(log) {
  if (installed()) return;
  log('installing bench/peer (npm ci there; its sqlite3 builds from source: ~2 min, once)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: PEER_DIR, stdio: ['ignore', 2, 2] });
  if (r.status !== 0 || !installed()) {
    throw new Error(`could not install the peer (npm ci in bench/peer exited ${r.status}): building sqlite3 needs python3, make and g++`);
  }
}
