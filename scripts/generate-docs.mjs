// Writes the parts of docs/ that are generated from the code, each between a BEGIN and an END
// marker, leaving the text around them as written:
//
//   docs/routes.md         routes         every route, from the OpenAPI document the app serves
//   docs/configuration.md  configuration  every setting, from the config schema (libs/platform/src/config.ts)
//                                         and its descriptions (libs/platform/src/config-docs.ts)
//   docs/api.md            errors         the error codes, from the error catalogue
//                                         (libs/platform/src/openapi/error-catalog.ts)
//
//   npm run docs                                regenerate (builds first)
//   node scripts/generate-docs.mjs --check      exit 1, naming each stale block, when the committed
//                                               text differs from what the code generates (a test runs this)
//   --docs <dir>                                another docs directory than docs/ (the drift test's copy)
//
// The code comes from the compiled app (dist/): the document is composed in process, without a
// socket and without workers, on a throwaway DATA_DIR.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi-document.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const FIX = 'npm run docs';

const begin = (name) => `<!-- BEGIN GENERATED ${name}: by scripts/generate-docs.mjs from the code; edit the code, then run \`${FIX}\` -->`;
const end = (name) => `<!-- END GENERATED ${name} -->`;

function dist(path) {
  const file = join(ROOT, 'dist', path);
  if (!existsSync(file)) throw new Error(`${relative(ROOT, file)} is missing: run \`npm run build\` first (or \`${FIX}\`, which builds)`);
  return require(file);
}

/** Each generated block: the file it lives in (under the docs directory), its name, its text. */
async function blocks() {
  const { routeListMarkdown } = dist('libs/platform/src/openapi/route-list.js');
  const { configTableMarkdown } = dist('libs/platform/src/config-docs.js');
  const { errorTableMarkdown } = dist('libs/platform/src/openapi/error-catalog.js');
  return [
    { file: 'routes.md', name: 'routes', text: routeListMarkdown(await openApiDocument('npm run docs')) },
    { file: 'configuration.md', name: 'configuration', text: configTableMarkdown() },
    { file: 'api.md', name: 'errors', text: errorTableMarkdown() },
  ];
}

/** The file's text with the block replaced; throws when its markers are missing or out of order. */
function replaceBlock(text, name, content, where) {
  const from = text.indexOf(begin(name));
  const to = text.indexOf(end(name));
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`${where} has no generated block "${name}": it needs the lines\n${begin(name)}\n${end(name)}`);
  }
  return `${text.slice(0, from)}${begin(name)}\n${content}\n${text.slice(to)}`;
}

/** The first line where two texts differ, for a message a person can act on. */
function firstDifference(current, wanted) {
  const a = current.split('\n');
  const b = wanted.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { line: i + 1, committed: a[i] ?? '(nothing)', generated: b[i] ?? '(nothing)' };
  }
  return undefined;
}

async function main(argv) {
  const check = argv.includes('--check');
  const at = argv.indexOf('--docs');
  const docs = at === -1 ? join(ROOT, 'docs') : resolve(argv[at + 1]);
  const stale = [];
  for (const block of await blocks()) {
    const path = join(docs, block.file);
    const where = relative(process.cwd(), path) || path;
    const current = readFileSync(path, 'utf8');
    const wanted = replaceBlock(current, block.name, block.text, where);
    if (current === wanted) continue;
    if (check) {
      const diff = firstDifference(current, wanted);
      stale.push(`${where}: the generated block "${block.name}" differs from what the code generates (line ${diff.line}:\n  committed: ${diff.committed}\n  generated: ${diff.generated})`);
    } else {
      writeFileSync(path, wanted);
      process.stdout.write(`wrote the "${block.name}" block of ${where}\n`);
    }
  }
  if (stale.length > 0) {
    process.stderr.write(`${stale.join('\n')}\nThe docs are stale: run \`${FIX}\` and commit what it changes.\n`);
    return 1;
  }
  process.stdout.write(check ? 'generated docs are up to date\n' : 'generated docs written\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
