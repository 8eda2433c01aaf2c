// Reads the README's walkthrough as a test runs it: its shell blocks, cut into commands and the
// output the README prints under each (`# …` lines), and the rule that compares that output with
// what a command printed. Used by test/readme-walkthrough.e2e.spec.ts (which runs it) and
// test/readme-walkthrough.unit.spec.ts (which pins these rules).

export interface WalkthroughUnit {
  /** The command lines, as printed (one or more: consecutive lines run together). */
  commands: string[];
  /** The output the README shows under them, each `# ` taken off; none means they print nothing. */
  expected: string[];
  /** The README's line of the first command, for messages. */
  line: number;
}

/** The text of the README's section whose heading starts with `## Walkthrough`, and the line it starts at. */
export function walkthroughSection(markdown: string): { text: string; line: number } {
  const match = /^## Walkthrough[^\n]*\n/m.exec(markdown);
  if (!match) throw new Error('the README has no "## Walkthrough" section');
  const start = match.index + match[0].length;
  const next = markdown.slice(start).search(/^## /m);
  const text = next === -1 ? markdown.slice(start) : markdown.slice(start, start + next);
  return { text, line: markdown.slice(0, start).split('\n').length };
}

/**
 * The walkthrough's `sh` blocks, cut into units: a unit is a run of command lines and the `#` lines
 * right under them (what they print). A blank line or a command after output starts a new unit.
 */
export function walkthroughUnits(markdown: string): WalkthroughUnit[] {
  const section = walkthroughSection(markdown);
  const units: WalkthroughUnit[] = [];
  const fence = /^```sh\n([\s\S]*?)^```$/gm;
  for (const block of section.text.matchAll(fence)) {
    const firstLine = section.line + section.text.slice(0, block.index).split('\n').length;
    let current: WalkthroughUnit | undefined;
    block[1].split('\n').forEach((line, i) => {
      if (line.trim() === '') {
        current = undefined;
        return;
      }
      if (/^#( |$)/.test(line)) {
        if (!current) throw new Error(`README line ${firstLine + i}: an output line under no command: ${line}`);
        current.expected.push(line.replace(/^# ?/, ''));
        return;
      }
      if (!current || current.expected.length > 0) {
        current = { commands: [], expected: [], line: firstLine + i };
        units.push(current);
      }
      current.commands.push(line);
    });
  }
  return units;
}

/** Whether a printed line is the README's line, where `…` stands for anything (ids, times, the rest of an answer). */
export function lineMatches(expected: string, printed: string): boolean {
  const pattern = expected
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(printed);
}

/** What a command printed, as lines (a last line break, or none, makes no line of its own). */
export function printedLines(output: string): string[] {
  if (output === '') return [];
  return output.replace(/\n$/, '').split('\n');
}

/** Where the printed output differs from the README's: a sentence per difference, none when they agree. */
export function outputDifferences(expected: string[], printed: string[]): string[] {
  const differences: string[] = [];
  if (expected.length !== printed.length) {
    differences.push(`the README shows ${expected.length} line(s) of output, the command printed ${printed.length}`);
  }
  for (let i = 0; i < Math.min(expected.length, printed.length); i++) {
    if (!lineMatches(expected[i], printed[i])) differences.push(`line ${i + 1}: the README shows\n    ${expected[i]}\n  the command printed\n    ${printed[i]}`);
  }
  return differences;
}

/** The walkthrough on another port: `localhost:<from>` becomes `localhost:<to>` in commands and outputs alike. */
export function onPort(units: WalkthroughUnit[], from: number, to: number): WalkthroughUnit[] {
  const swap = (text: string): string => text.split(`localhost:${from}`).join(`localhost:${to}`);
  return units.map((unit) => ({ ...unit, commands: unit.commands.map(swap), expected: unit.expected.map(swap) }));
}

/**
 * One bash script that runs every unit in the same shell (its variables and functions carry on, as
 * in a terminal), each unit's output (stdout and stderr, as a terminal shows them) and exit status
 * written to `<outDir>/<i>.out` and `<i>.rc`.
 */
export function walkthroughScript(units: WalkthroughUnit[], outDir: string): string {
  const quoted = `'${outDir.replace(/'/g, `'\\''`)}'`;
  return units
    .map((unit, i) => `{\n${unit.commands.join('\n')}\n} > ${quoted}/${i}.out 2>&1\necho $? > ${quoted}/${i}.rc\n`)
    .join('');
}
