// The main entry is browser-safe: nothing reachable from index.ts imports a Node module (`node:…`
// or a bare built-in), the server's code (`@app/…`) or any package (the client has no runtime
// dependencies), and no file of it uses Node's globals (Buffer, process, require). Read from the
// source: every relative import followed from index.ts. The `./webhooks` entry is the one place
// allowed node:crypto, and nothing in the main entry reaches it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';

interface Finding {
  file: string;
  problem: string;
}

/** The file a relative import names: `./x` → x.ts or x/index.ts. */
function resolveImport(from: string, spec: string, exists: (file: string) => boolean): string {
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (exists(candidate)) return candidate;
  throw new Error(`${from}: cannot resolve ${spec}`);
}

/** Code without its comments and strings' contents, to look for globals. */
function codeOf(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let code = '';
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) continue;
    if (token === ts.SyntaxKind.StringLiteral || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      code += ' "" ';
      continue;
    }
    code += scanner.getTokenText();
  }
  return code;
}

/** Walks the import graph from `entry`; returns the files reached and what is wrong in them. */
function walk(
  entry: string,
  read: (file: string) => string = (file) => readFileSync(file, 'utf8'),
  exists: (file: string) => boolean = existsSync,
): { files: string[]; findings: Finding[] } {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = read(file);
    const name = relative(__dirname, file);
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (spec.startsWith('.')) queue.push(resolveImport(file, spec, exists));
      else findings.push({ file: name, problem: `imports ${spec}` });
    }
    const globals = /\b(Buffer|process|require|__dirname|__filename)\b/.exec(codeOf(text));
    if (globals) findings.push({ file: name, problem: `uses Node's ${globals[1]}` });
  }
  return { files: [...seen].map((file) => relative(__dirname, file)).sort(), findings };
}

describe('the main entry (index.ts)', () => {
  const { files, findings } = walk(join(__dirname, 'index.ts'));

  it('reaches the client, its groups and its core', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'index.ts',
        'client.ts',
        'types.ts',
        'endpoint-types.ts',
        'generated/openapi.ts',
        'core/transport.ts',
        'core/pagination.ts',
        'core/errors.ts',
        'resources/resource.ts',
        'resources/secure-trades.ts',
        'resources/trade-graph.ts',
        'resources/webhooks.ts',
        'resources/buyers.ts',
        'resources/widget.ts',
        'resources/notifications.ts',
        'webhook-signatures.ts',
      ]),
    );
    expect(files.filter((file) => file.startsWith('resources/')).length).toBe(19);
  });

  it('imports nothing but its own files, and no Node global', () => {
    expect(findings).toEqual([]);
  });

  it('does not reach the node:crypto receiver entry', () => {
    expect(files).not.toContain('webhooks.ts');
  });

  it('catches a breach (the check bites)', () => {
    const fake: Record<string, string> = {
      [join(__dirname, 'fake-entry.ts')]: "export * from './fake-a';\nimport type { X } from './fake-b';",
      [join(__dirname, 'fake-a.ts')]: "import { createHmac } from 'node:crypto';\n// Buffer in a comment is fine\nconst s = 'process';",
      [join(__dirname, 'fake-b.ts')]: "import { ApiError } from '@app/platform';\nimport z from 'zod';\nexport const b = Buffer.from('x');",
    };
    const result = walk(
      join(__dirname, 'fake-entry.ts'),
      (file) => fake[file],
      (file) => file in fake,
    );
    expect(result.files).toEqual(['fake-a.ts', 'fake-b.ts', 'fake-entry.ts']);
    expect(result.findings).toEqual([
      { file: 'fake-b.ts', problem: 'imports @app/platform' },
      { file: 'fake-b.ts', problem: 'imports zod' },
      { file: 'fake-b.ts', problem: "uses Node's Buffer" },
      { file: 'fake-a.ts', problem: 'imports node:crypto' },
    ]);
  });
});

describe('the ./webhooks entry', () => {
  it('is where node:crypto is, and reaches nothing else of Node', () => {
    const { findings } = walk(join(__dirname, 'webhooks.ts'));
    expect(findings.filter((f) => f.problem !== "uses Node's Buffer")).toEqual([{ file: 'webhooks.ts', problem: 'imports node:crypto' }]);
  });
});
