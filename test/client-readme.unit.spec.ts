// The README's Client section shows only code that runs: each of its examples is marked
// `<!-- from test/… -->` and must be found, line for line, in the test it names (which runs it
// against the real app). Compared line by line with the indentation trimmed; blank lines, comment
// lines (the README's notes on output) and import lines (the README imports the package by its
// name, the tests by `@app/client`) are left out of the comparison.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Example {
  source: string;
  code: string;
  line: number;
}

/** Every fenced block right after a `<!-- from test/… -->` marker. */
function examplesOf(markdown: string): Example[] {
  const examples: Example[] = [];
  const marker = /<!-- from (test\/[\w./-]+) -->\n```\w*\n([\s\S]*?)```/g;
  for (const m of markdown.matchAll(marker)) {
    examples.push({ source: m[1], code: m[2], line: markdown.slice(0, m.index).split('\n').length });
  }
  return examples;
}

const codeLines = (text: string, skipImports: boolean) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//') && !(skipImports && line.startsWith('import ')));

/** Whether `example`'s lines appear, in order and together, among `file`'s. */
function quotes(file: string, example: string): boolean {
  const want = codeLines(example, true);
  const have = codeLines(file, false);
  if (want.length === 0) return false;
  return have.some((_, i) => want.every((line, j) => have[i + j] === line));
}

describe("the README's Client section", () => {
  const section = /\n## Client[^\n]*\n([\s\S]*?)\n## /.exec(README)?.[1] ?? '';
  const examples = examplesOf(section);

  it('takes its first call, idempotency, errors, pagination and receiver examples from tests that run', () => {
    expect(section).not.toBe('');
    expect(examples.map((e) => e.source)).toEqual(expect.arrayContaining(['test/client-package.e2e.spec.ts', 'test/client.e2e.spec.ts']));
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((e) => [`${e.source}, example at line ${e.line} of the section`, e] as const))('%s is in the test', (_name, example) => {
    const source = readFileSync(join(ROOT, example.source), 'utf8');
    expect({ source: example.source, quoted: quotes(source, example.code), code: example.code }).toEqual({ source: example.source, quoted: true, code: example.code });
  });

  it('tells a changed example from a quoted one', () => {
    const file = 'const a = 1;\n  if (a) {\n    run(a);\n  }\n';
    expect(quotes(file, "import { x } from 'y';\nif (a) {\n  run(a); \n}\n// a note")).toBe(true);
    expect(quotes(file, 'if (a) {\n  run(b);\n}')).toBe(false);
    expect(quotes(file, 'const a = 1;\nrun(a);')).toBe(false);
    expect(examplesOf('<!-- from test/x.spec.ts -->\n```ts\nrun();\n```\n')).toEqual([{ source: 'test/x.spec.ts', code: 'run();\n', line: 1 }]);
  });
});
