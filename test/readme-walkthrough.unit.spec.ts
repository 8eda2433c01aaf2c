// The rules by which test/readme-walkthrough.e2e.spec.ts reads and judges the README's walkthrough,
// and the shape the walkthrough keeps: ten numbered steps, runnable on a stock machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { lineMatches, onPort, outputDifferences, printedLines, walkthroughScript, walkthroughSection, walkthroughUnits } from '@app/testing/support/walkthrough';

const README = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

describe("the README's walkthrough", () => {
  const section = walkthroughSection(README).text;
  const units = walkthroughUnits(README);

  it('has ten numbered steps, in order, each with its commands', () => {
    const steps = [...section.matchAll(/^\*\*(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const blocks = section.split(/^\*\*\d+\. /m).slice(1);
    for (const block of blocks) expect(block).toMatch(/```sh\n[\s\S]*?```/);
  });

  it('needs nothing a stock machine lacks (no jq), and talks to the port the README names', () => {
    const commands = units.flatMap((unit) => unit.commands).join('\n');
    expect(commands).not.toMatch(/\bjq\b/);
    expect([...new Set([...commands.matchAll(/localhost:(\d+)/g)].map((m) => m[1]))]).toEqual(['3000']);
  });

  it('shows under each command what it prints, so a command with no output line must print nothing', () => {
    expect(units.length).toBeGreaterThanOrEqual(10);
    expect(units.filter((unit) => unit.expected.length > 0).length).toBeGreaterThanOrEqual(10);
  });
});

describe('reading a walkthrough', () => {
  const readme = (body: string): string => `# X\n\n## Walkthrough: a test\n\n${body}\n## Next\n\n\`\`\`sh\nnot-in-the-walkthrough\n\`\`\`\n`;

  it('cuts each sh block into commands and the output under them', () => {
    const units = walkthroughUnits(readme('```sh\nA=$(make a)\necho "$A"\n# a…\n\nrun b \\\n  --flag\n# b1\n#\n# b3\nquiet\n```\n\n```text\n# not a command\n```\n'));
    expect(units).toEqual([
      { commands: ['A=$(make a)', 'echo "$A"'], expected: ['a…'], line: 6 },
      { commands: ['run b \\', '  --flag'], expected: ['b1', '', 'b3'], line: 10 },
      { commands: ['quiet'], expected: [], line: 15 },
    ]);
  });

  it('refuses an output line under no command', () => {
    expect(() => walkthroughUnits(readme('```sh\n# orphan\n```\n'))).toThrow(/line 6: an output line under no command/);
  });

  it('reads … as anything, and the rest of the line exactly', () => {
    expect(lineMatches('{"id":"br_…","matchCount":0}', '{"id":"br_01M8JK3FD6SND5M86Q352MFS82","matchCount":0}')).toBe(true);
    expect(lineMatches('{"id":"br_…","matchCount":0}', '{"id":"br_01M8","matchCount":1}')).toBe(false);
    expect(lineMatches('paid', 'paid ')).toBe(false);
    expect(lineMatches('a.b (c) [d] $e ^f |g', 'a.b (c) [d] $e ^f |g')).toBe(true);
    expect(lineMatches('a.b', 'axb')).toBe(false);
    expect(lineMatches('…', '')).toBe(true);
  });

  it('compares line counts as well as lines, and takes a missing last line break as none', () => {
    expect(printedLines('')).toEqual([]);
    expect(printedLines('a\nb\n')).toEqual(['a', 'b']);
    expect(printedLines('a\nb')).toEqual(['a', 'b']);
    expect(outputDifferences(['a', 'b…'], ['a', 'bc'])).toEqual([]);
    expect(outputDifferences([], ['printed'])).toEqual(['the README shows 0 line(s) of output, the command printed 1']);
    expect(outputDifferences(['x'], ['y'])).toEqual(['line 1: the README shows\n    x\n  the command printed\n    y']);
  });

  it('moves the walkthrough to another port in commands and outputs alike', () => {
    const [unit] = onPort([{ commands: ['curl http://localhost:3000/a'], expected: ['http://localhost:3000/portal/#link=…', 'localhost:30001'], line: 1 }], 3000, 41234);
    expect(unit.commands).toEqual(['curl http://localhost:41234/a']);
    expect(unit.expected).toEqual(['http://localhost:41234/portal/#link=…', 'localhost:412341']);
  });

  it('runs every unit in one shell, each with its own output file and exit status', () => {
    const script = walkthroughScript(
      [
        { commands: ['X=1'], expected: [], line: 1 },
        { commands: ['echo $X'], expected: ['1'], line: 2 },
      ],
      "/tmp/it's",
    );
    expect(script).toBe("{\nX=1\n} > '/tmp/it'\\''s'/0.out 2>&1\necho $? > '/tmp/it'\\''s'/0.rc\n{\necho $X\n} > '/tmp/it'\\''s'/1.out 2>&1\necho $? > '/tmp/it'\\''s'/1.rc\n");
  });
});
