// The import rules that keep each context a room with one door, read from the source itself:
// - a lib reaches another lib only through its entry (`@app/demand`, never a file inside it), and
//   only the libs it may depend on (the webhooks context knows no other context);
// - deciders and event contracts import only the domain entry, the shared vocabulary, zod, Node's
//   built-ins and their own context;
// - a context's index.ts names what it exports (no `export *`): its contract, nothing else;
// - the composition roots (apps/) use contexts through their entries too.
// Cross-context tests that reach inside on purpose live in test/integration, outside these rules.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';

const root = join(__dirname, '../..');

/** What each lib may import besides itself. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  platform: [],
  catalog: [],
  contracts: [],
  client: [],
  access: ['platform'],
  portal: ['platform', 'access'],
  demand: ['platform', 'catalog', 'contracts'],
  supply: ['platform', 'catalog', 'contracts'],
  matching: ['platform', 'catalog', 'contracts', 'demand', 'supply'],
  trading: ['platform', 'contracts', 'demand', 'supply'],
  live: ['platform', 'contracts', 'demand', 'supply', 'trading'],
  webhooks: ['platform'],
  automations: ['platform', 'contracts', 'demand', 'supply', 'trading'],
  trust: ['platform', 'access', 'trading'],
  tradegraph: ['platform', 'catalog', 'contracts', 'demand', 'supply', 'trading'],
  widget: ['platform', 'catalog', 'access', 'demand'],
  notifications: ['platform', 'access', 'demand', 'supply', 'widget'],
};
const CONTEXTS = ['access', 'demand', 'supply', 'matching', 'trading', 'live', 'webhooks', 'automations', 'trust', 'tradegraph', 'widget', 'notifications'];
/**
 * Entries other libs may import: the lib's index, the platform's pure domain entry, and the
 * client's second entry (its node:crypto webhook receiver checks; the main entry is browser-safe).
 */
const ENTRIES = new Set([...Object.keys(ALLOWED).map((lib) => `@app/${lib}`), '@app/platform/domain', '@app/client/webhooks']);
const PURE_ALLOWED = (spec: string) => spec === 'zod' || spec === '@app/platform/domain' || spec === '@app/contracts' || spec.startsWith('node:');

interface SourceFile {
  /** Relative to the project root, e.g. `libs/demand/src/buyer-request/buyer-request.decider.ts`. */
  path: string;
  text: string;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [{ path, text: readFileSync(join(root, path), 'utf8') }] : [];
  });
}

function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, false).importedFiles.map((f) => f.fileName);
}

const libOf = (path: string): string | null => /^libs\/([^/]+)\//.exec(path)?.[1] ?? null;

/** Every broken rule, as a readable line. Checked against breaches made up below, so the test shows it bites. */
function violations(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const lib = libOf(file.path);
    const isSpec = file.path.endsWith('.spec.ts');
    const isPure = /\.(decider|events)\.ts$/.test(file.path);
    for (const spec of importsOf(file.text)) {
      if (spec.startsWith('.')) {
        const target = relative(root, resolve(root, dirname(file.path), spec));
        if (lib && libOf(target) !== lib) out.push(`${file.path}: reaches into ${target} by a relative path`);
        if (!lib && file.path.startsWith('apps/') && target.startsWith('libs/')) out.push(`${file.path}: reaches into ${target}`);
        continue;
      }
      if (isPure && !PURE_ALLOWED(spec)) out.push(`${file.path}: a decider or event contract imports ${spec}`);
      if (!spec.startsWith('@app/')) continue;
      const target = spec.split('/')[1];
      if (spec.startsWith('@app/testing/')) {
        if (!isSpec) out.push(`${file.path}: test support ${spec} in non-test code`);
        continue;
      }
      if (target === lib) {
        // A test may use its own lib's entry (it tests the contract); code inside uses relative paths.
        if (!isSpec) out.push(`${file.path}: imports its own lib through ${spec} (use a relative path)`);
        continue;
      }
      // Tests of a lib may open the platform's adapters (e.g. a SQLite store) directly.
      const platformInternal = isSpec && target === 'platform';
      if (!ENTRIES.has(spec) && !platformInternal) out.push(`${file.path}: imports ${spec}, inside another lib (use its entry, @app/${target})`);
      if (lib && !(ALLOWED[lib] ?? []).includes(target)) out.push(`${file.path}: the ${lib} lib may not depend on ${target}`);
    }
    if (lib && CONTEXTS.includes(lib) && file.path === `libs/${lib}/src/index.ts` && /export \*/.test(file.text)) {
      out.push(`${file.path}: exports everything (export *); name the contract instead`);
    }
  }
  return out;
}

describe('context boundaries', () => {
  const files = [...sourceFiles('libs'), ...sourceFiles('apps')];

  it('reads the whole source', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(['libs/demand/src/index.ts', 'apps/api/src/app.module.ts']));
  });

  it('holds in the code today', () => {
    expect(violations(files)).toEqual([]);
  });

  it('catches each kind of breach', () => {
    const breaches: SourceFile[] = [
      { path: 'libs/matching/src/engine/x.ts', text: "import { BUYER_REQUESTS } from '../../../demand/src/buyer-request/buyer-request.projection';" },
      { path: 'libs/webhooks/src/events/x.ts', text: "import { parseBuyerRequestEvent } from '@app/demand';" },
      { path: 'libs/matching/src/engine/y.ts', text: "import { x } from '@app/demand/buyer-request/buyer-request.projection';" },
      { path: 'libs/demand/src/buyer-request/x.decider.ts', text: "import { Injectable } from '@nestjs/common';\nimport { ProjectionRunner } from '@app/platform';" },
      { path: 'libs/supply/src/index.ts', text: "export * from './inventory/inventory.handlers';" },
      { path: 'apps/api/src/x.ts', text: "import { inventoryDecider } from '../../../libs/supply/src/inventory/inventory.decider';" },
      { path: 'libs/demand/src/x.ts', text: "import { deciderSpec } from '@app/testing/support/decider-spec';" },
    ];
    expect(violations(breaches)).toEqual([
      'libs/matching/src/engine/x.ts: reaches into libs/demand/src/buyer-request/buyer-request.projection by a relative path',
      'libs/webhooks/src/events/x.ts: the webhooks lib may not depend on demand',
      'libs/matching/src/engine/y.ts: imports @app/demand/buyer-request/buyer-request.projection, inside another lib (use its entry, @app/demand)',
      'libs/demand/src/buyer-request/x.decider.ts: a decider or event contract imports @nestjs/common',
      'libs/demand/src/buyer-request/x.decider.ts: a decider or event contract imports @app/platform',
      'libs/supply/src/index.ts: exports everything (export *); name the contract instead',
      'apps/api/src/x.ts: reaches into libs/supply/src/inventory/inventory.decider',
      'libs/demand/src/x.ts: test support @app/testing/support/decider-spec in non-test code',
    ]);
  });
});
