// The client's manual (libs/client/README.md, the package's front page) shows only code that runs:
// each of its examples is marked `<!-- from test/… -->` and must be found, line for line, in the
// test it names (which runs it against the real app). Compared line by line with the indentation
// trimmed; blank lines, comment lines (the manual's notes on output) and import lines (the manual
// imports the package by its name, the tests by `@app/client`) are left out of the comparison.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CommerceClient } from '@app/client';

const ROOT = join(__dirname, '..');
const MANUAL = readFileSync(join(ROOT, 'libs/client/README.md'), 'utf8');

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

const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

describe("the client's manual (libs/client/README.md)", () => {
  const examples = examplesOf(MANUAL);

  it('names every resource group of CommerceClient, and counts them right', () => {
    const client = new CommerceClient({ apiKey: 'sk_test_manual', baseUrl: 'http://127.0.0.1:9' }) as unknown as Record<string, unknown>;
    const groups = Object.keys(client).filter((key) => key !== 'transport' && typeof client[key] === 'object');
    const sentence = /in (\w+) resource groups — ([^—]+) —/.exec(MANUAL.replace(/\s+/g, ' '));
    expect(sentence).not.toBeNull();
    const [, count, list] = sentence as RegExpExecArray;
    expect([...list.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual([...groups].sort());
    expect(count).toBe(NUMBERS[groups.length]);
  });

  it('takes its first call, idempotency, errors, pagination and receiver examples from tests that run', () => {
    expect(MANUAL).not.toBe('');
    expect(examples.map((e) => e.source)).toEqual(expect.arrayContaining(['test/client-package.e2e.spec.ts', 'test/client.e2e.spec.ts']));
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((e) => [`${e.source}, example at line ${e.line} of the manual`, e] as const))('%s is in the test', (_name, example) => {
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
