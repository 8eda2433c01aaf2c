// What a bench starts — child processes, temp dirs, and anything registered with onCleanup — is
// released on exit, on failure and on a signal. Shared by run.mjs, scale.mjs and webhooks.mjs.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Live child processes; scripts add theirs (trackChild does it for them). */
export const children = new Set();
const tempDirs = new Set();
const hooks = [];
let keep = () => false;

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function trackChild(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Runs `fn` (synchronously) at cleanup, before temp dirs are removed. */
export function onCleanup(fn) {
  hooks.push(fn);
}

/** Temp dirs for which `predicate(dir)` holds are kept (and named on stderr) instead of removed. */
export function keepTempDirs(predicate) {
  keep = predicate;
}

export function cleanup() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const hook of hooks) hook();
  for (const dir of tempDirs) {
    if (keep(dir)) process.stderr.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
  tempDirs.clear();
}

/** Cleans up on exit, and on SIGINT/SIGTERM/SIGHUP before exiting with 130. */
export function cleanupOnExit(log) {
  process.on('exit', cleanup);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      log(`${sig}: stopping children`);
      cleanup();
      process.exit(130);
    });
  }
}

/**
 * Copies the build (dist/) to a temp dir beside symlinks to node_modules and package.json, so a
 * rebuild during the run does not change what is measured. `required` are files that must exist.
 */
export function snapshotBuild(sourceRoot, prefix, required) {
  for (const f of required) {
    if (!existsSync(join(sourceRoot, f))) throw new Error(`${join(sourceRoot, f)} is missing: run \`npm run build\` first`);
  }
  const dir = tempDir(prefix);
  cpSync(join(sourceRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(sourceRoot, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(sourceRoot, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/** Busy CPU seconds of the whole machine so far (all cores; /proc/stat, Linux); NaN elsewhere. */
export function machineBusySeconds() {
  try {
    const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = f.map(Number);
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return Number.NaN;
  }
}
