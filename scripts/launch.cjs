// `npm run build`, `npm run cli -- …` and `npm start`. The build (swc, apps/ and libs/ into dist/)
// leaves a stamp, dist/.build-stamp, whose time is when that build began reading the sources. The
// CLI and the API run from dist/ at once when no input of the build is newer than the stamp, and
// build first only when one is: a second CLI command costs no build.
//
//   node scripts/launch.cjs build          the build, always (npm run build)
//   node scripts/launch.cjs cli [args…]    the CLI, built first if stale (npm run cli -- …)
//   node scripts/launch.cjs api            the API, built first if stale (npm start)
//
// Plain CommonJS, run by Node as it is: it works before anything is built (it imports nothing of
// the project), and it adds no TypeScript stripping to every CLI call. Its own messages go to
// stderr: the CLI's stdout is its JSON alone. Tested by test/launch.unit.spec.ts and
// test/launch.e2e.spec.ts.
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

/** The folders the build compiles, and copies the other files of (the portal's pages, …). */
const SOURCE_DIRS = ['apps', 'libs'];

/** What the build leaves out of them: swc's `--ignore` globs, relative to the root. */
const IGNORED = ['libs/*/data/**', 'libs/*/dist/**', 'libs/client/package.json'];

/** Files outside the sources that change the output: swc's settings and version, and this script. */
const BUILD_FILES = ['.swcrc', 'package-lock.json', 'scripts/launch.cjs'];

const OUT_DIR = 'dist';
const STAMP = `${OUT_DIR}/.build-stamp`;

const ENTRIES = { cli: 'dist/apps/cli/src/main.js', api: 'dist/apps/api/src/main.js' };

/**
 * Why the build in dist/ is out of date, or null when it is current: no stamp (never built, or the
 * last build failed), or an input whose time is at or after the moment that build began to read
 * them. A folder counts as an input too: its time moves when a file in it is added, removed or
 * renamed.
 * @param {number | null} stampMtimeMs
 * @param {Iterable<{ path: string, mtimeMs: number }>} inputs
 * @returns {string | null}
 */
function staleReason(stampMtimeMs, inputs) {
  if (stampMtimeMs === null) return `no finished build in ${OUT_DIR}/ yet`;
  for (const input of inputs) {
    if (input.mtimeMs >= stampMtimeMs) return `${input.path} changed since the last build`;
  }
  return null;
}

/**
 * Whether the build leaves `path` (relative, with `/`) out: an IGNORED glob (`*` one segment, a
 * trailing `/**` the folder and all below it) or node_modules.
 * @param {string} path
 */
function ignoredByBuild(path) {
  const segments = path.split('/');
  if (segments.includes('node_modules')) return true;
  return IGNORED.some((glob) => {
    const parts = glob.split('/');
    const folder = parts[parts.length - 1] === '**';
    const fixed = folder ? parts.slice(0, -1) : parts;
    if (folder ? segments.length < fixed.length : segments.length !== fixed.length) return false;
    return fixed.every((part, i) => part === '*' || part === segments[i]);
  });
}

/**
 * swc's `exclude` patterns (.swcrc): files it neither compiles nor copies (the *.spec.ts files).
 * @param {string} root
 * @returns {RegExp[]}
 */
function excludedBySwc(root) {
  try {
    const { exclude } = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
    return (exclude === undefined ? [] : [].concat(exclude)).map((pattern) => new RegExp(pattern));
  } catch {
    return [];
  }
}

/**
 * The build's inputs under `root`, lazily (the first newer one ends the walk): the source folders
 * and every file in them the build reads, then BUILD_FILES.
 * @param {string} root
 * @returns {Generator<{ path: string, mtimeMs: number }>}
 */
function* buildInputs(root) {
  const excluded = excludedBySwc(root);
  function* walk(dir) {
    yield { path: `${dir}/`, mtimeMs: statSync(join(root, dir)).mtimeMs };
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (ignoredByBuild(path)) continue;
      if (entry.isDirectory()) yield* walk(path);
      else if (!excluded.some((pattern) => pattern.test(path))) yield { path, mtimeMs: statSync(join(root, path)).mtimeMs };
    }
  }
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) yield* walk(dir);
  for (const path of BUILD_FILES) {
    const mtimeMs = mtimeOrNull(join(root, path));
    if (mtimeMs !== null) yield { path, mtimeMs };
  }
}

/** @param {string} path */
function mtimeOrNull(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Why the build under `root` is out of date, or null; null too where there is no source to build
 * from (an image that holds dist/ only).
 * @param {string} root
 */
function buildStaleness(root) {
  if (!SOURCE_DIRS.some((dir) => existsSync(join(root, dir)))) return null;
  return staleReason(mtimeOrNull(join(root, STAMP)), buildInputs(root));
}

/**
 * Builds dist/ with swc. A marker file made before swc starts holds the moment it began to read
 * the sources; once swc succeeds it becomes the stamp (a failed build leaves none, so the next run
 * builds again). Returns swc's exit status.
 * @param {string} root
 * @param {'inherit' | 'stderr'} output where swc's own output goes
 * @returns {number}
 */
function build(root, output) {
  const out = join(root, OUT_DIR);
  mkdirSync(out, { recursive: true });
  const marker = join(out, `.build-started-${process.pid}`);
  writeFileSync(marker, '');
  rmSync(join(root, STAMP), { force: true });
  const swc = join(root, 'node_modules', '@swc', 'cli', 'bin', 'swc.js');
  const args = [...SOURCE_DIRS, '-d', OUT_DIR, '--config-file', '.swcrc', '--copy-files', ...IGNORED.flatMap((glob) => ['--ignore', glob]), '--quiet'];
  const result = spawnSync(process.execPath, [swc, ...args], { cwd: root, stdio: output === 'inherit' ? 'inherit' : ['ignore', 2, 2] });
  if (result.error) process.stderr.write(`build: ${result.error.message}\n`);
  if (result.status === 0) renameSync(marker, join(root, STAMP));
  else rmSync(marker, { force: true });
  return result.status ?? 1;
}

/**
 * npm prints its `> script` banner on stdout unless it runs silent (`npm run -s`), before the
 * script starts: nothing here can take it back. When stdout is piped (into jq, a file) the JSON
 * then follows a banner: say so, on stderr, with what to type instead.
 * @param {Record<string, string | undefined>} env
 * @param {boolean} stdoutIsTTY
 * @returns {string | null}
 */
function bannerNote(env, stdoutIsTTY) {
  if (stdoutIsTTY || env.npm_lifecycle_event !== 'cli' || env.npm_config_loglevel === 'silent' || env.npm_config_json === 'true') return null;
  return 'note: npm printed its "> cli" banner on stdout before the JSON; `npm run -s cli -- …` prints the JSON alone (e.g. for jq)\n';
}

/**
 * @param {string} root
 * @param {string[]} argv
 */
function main(root, [what, ...args]) {
  if (what === 'build') {
    process.exitCode = build(root, 'inherit');
    return;
  }
  if (what !== 'cli' && what !== 'api') {
    process.stderr.write('Usage: node scripts/launch.cjs build | cli [args…] | api\n');
    process.exitCode = 2;
    return;
  }
  const stale = buildStaleness(root);
  if (stale !== null) {
    process.stderr.write(`building first: ${stale}\n`);
    const began = Date.now();
    const status = build(root, 'stderr');
    if (status !== 0) {
      process.stderr.write(`the build failed (exit ${status}): see above\n`);
      process.exitCode = status;
      return;
    }
    process.stderr.write(`built in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
  }
  if (what === 'cli') {
    const note = bannerNote(process.env, process.stdout.isTTY === true);
    if (note) process.stderr.write(note);
  }
  // V8's compiled code of dist/ and node_modules kept on disk (under os.tmpdir()): a start reads
  // it back instead of compiling every module again.
  require('node:module').enableCompileCache?.();
  const entry = join(root, ENTRIES[what]);
  // The entry point reads its arguments from process.argv, as if started directly.
  process.argv.splice(1, 2, entry);
  require(entry);
}

module.exports = { SOURCE_DIRS, IGNORED, BUILD_FILES, STAMP, ENTRIES, staleReason, ignoredByBuild, buildInputs, buildStaleness, build, bannerNote };

if (require.main === module) main(resolve(__dirname, '..'), process.argv.slice(2));
