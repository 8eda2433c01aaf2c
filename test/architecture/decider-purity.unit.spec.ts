// Deciders and event contracts load alone: each `*.decider.ts` and `*.events.ts` must not bring
// NestJS, a database driver or the HTTP stack with it, however indirectly. Read from the sources,
// compiled one file at a time in memory with the project's own swc settings (.swcrc): what a file
// requires is what swc leaves of its imports (type-only imports are dropped, as in dist/). The
// requires are followed through our files (relative paths and the @app/* entries) to the packages
// they reach, and each package through the dependencies its package.json declares.
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { transformSync } from '@swc/core';

const root = join(__dirname, '../..');
/** Packages a decider has no business loading. */
const FORBIDDEN = /^(@nestjs\/|@eventstore\/|@fastify\/|(mongodb|fastify|rxjs|reflect-metadata|rate-limiter-flexible|helmet)$)/;

const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8')) as {
  module: Record<string, unknown>;
  jsc: Record<string, unknown> & { paths: Record<string, string[]>; baseUrl?: string };
};
/** The @app/* aliases, as the build resolves them (.swcrc's paths): `@app/platform` → libs/platform/src. */
const { paths: ALIASES, baseUrl: _baseUrl, ...jsc } = swcrc.jsc;
const BUILTINS = new Set(builtinModules);

function sourceFiles(dir: string, suffixes: readonly string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'data' ? [] : sourceFiles(path, suffixes);
    return suffixes.some((s) => name.endsWith(s)) ? [path] : [];
  });
}

/** What TypeScript source requires once compiled as the build compiles it. */
function compiledRequires(source: string, filename: string): string[] {
  const { code } = transformSync(source, { filename, swcrc: false, configFile: false, sourceMaps: false, module: swcrc.module, jsc } as never);
  return [...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
}

const requiresOf = (file: string): string[] => (file.endsWith('.json') ? [] : compiledRequires(readFileSync(file, 'utf8'), file));

/** A module path without extension → the source file the build compiled it from. */
function sourceOf(base: string): string {
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`no source for ${relative(root, base)}`);
}

type Target = { file: string } | { package: string } | null;

function resolveRequire(from: string, spec: string): Target {
  if (spec.startsWith('.')) return { file: sourceOf(join(dirname(from), spec)) };
  for (const [alias, [target]] of Object.entries(ALIASES)) {
    if (alias.endsWith('/*') && spec.startsWith(alias.slice(0, -1))) return { file: sourceOf(join(root, target.slice(0, -1) + spec.slice(alias.length - 1))) };
    if (spec === alias) return { file: sourceOf(join(root, target)) };
  }
  if (spec.startsWith('node:') || BUILTINS.has(spec)) return null;
  const parts = spec.split('/');
  return { package: spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
}

/** A package's own dependencies (what loading it may load), from its package.json. */
function dependenciesOf(name: string): string[] {
  const manifest = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return [];
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(dependencies);
}

/**
 * Every forbidden package `entry` reaches, each with the path that reaches it. `read` gives a file's
 * requires (the real compiler by default; the test below hands in made-up files).
 */
function forbiddenReachedFrom(entry: string, read: (file: string) => string[] = requiresOf): string[] {
  const via = new Map<string, string>([[entry, '']]);
  const queue = [entry];
  const found: string[] = [];
  const name = (node: string) => (node.startsWith('pkg:') ? node.slice(4) : relative(root, node));
  const chain = (node: string): string => {
    const names: string[] = [];
    for (let at = node; at !== ''; at = via.get(at) ?? '') names.unshift(name(at));
    return names.join(' → ');
  };
  const visit = (node: string, parent: string) => {
    if (via.has(node)) return;
    via.set(node, parent);
    queue.push(node);
  };
  while (queue.length > 0) {
    const node = queue.shift() as string;
    if (node.startsWith('pkg:')) {
      const pkg = node.slice(4);
      if (FORBIDDEN.test(pkg)) {
        found.push(chain(node));
        continue;
      }
      for (const dependency of dependenciesOf(pkg)) visit(`pkg:${dependency}`, node);
      continue;
    }
    for (const spec of read(node)) {
      const target = resolveRequire(node, spec);
      if (target) visit('file' in target ? target.file : `pkg:${target.package}`, node);
    }
  }
  return found;
}

describe('deciders and event contracts load alone', () => {
  const files = sourceFiles(join(root, 'libs'), ['.decider.ts', '.events.ts']);

  it('finds the deciders and event contracts of every context', () => {
    const names = files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort();
    expect(names).toEqual(
      expect.arrayContaining(['buyer-request.decider.ts', 'inventory.decider.ts', 'intake.decider.ts', 'webhook.decider.ts', 'delivery.decider.ts', 'workspace.decider.ts', 'api-key.decider.ts']),
    );
    expect(names.length).toBeGreaterThanOrEqual(15);
  });

  it('each loads without NestJS, a database driver or the HTTP stack', () => {
    const offenders = files.flatMap((file) => forbiddenReachedFrom(file).map((path) => `${relative(root, file)} loads ${path.split(' → ').pop()}: ${path}`));
    expect(offenders).toEqual([]);
  });

  it('follows our files and the packages\' dependencies, and names the path to what it finds', () => {
    // Made-up requires: a decider → a file of its context → @app/platform (its entry, which loads
    // NestJS); another → a package that depends on a forbidden one (avvio → @fastify/error).
    const decider = join(root, 'libs/demand/src/buyer-request/buyer-request.decider.ts');
    const schemas = join(root, 'libs/demand/src/buyer-request/buyer-request.schemas.ts');
    const platform = join(root, 'libs/platform/src/index.ts');
    const reads: Record<string, string[]> = { [decider]: ['./buyer-request.schemas', 'zod', 'node:crypto', 'avvio'], [schemas]: ['@app/platform'], [platform]: ['@nestjs/common'] };
    expect(forbiddenReachedFrom(decider, (file) => reads[file] ?? []).sort()).toEqual([
      'libs/demand/src/buyer-request/buyer-request.decider.ts → avvio → @fastify/error',
      'libs/demand/src/buyer-request/buyer-request.decider.ts → libs/demand/src/buyer-request/buyer-request.schemas.ts → libs/platform/src/index.ts → @nestjs/common',
    ]);
  });

  it('sees what the build keeps of the imports: a type-only import is no load, a used value is', () => {
    const source = [
      "import type { ModuleRef } from '@nestjs/core';",
      "import { Injectable } from '@nestjs/common';",
      "import { z } from 'zod';",
      "import { Observable } from 'rxjs';",
      'export type Ref = ModuleRef | Observable<unknown>;',
      'export const schema = z.string();',
      'export const mark = Injectable;',
    ].join('\n');
    expect(compiledRequires(source, join(root, 'libs/demand/src/x.decider.ts'))).toEqual(['@nestjs/common', 'zod']);
  });
});
