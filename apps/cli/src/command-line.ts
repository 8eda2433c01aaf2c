// What the CLI's arguments ask for, before anything is opened: help (stdout, exit 0), a command to
// run, or an unknown command (named, with the usage, on stderr: exit 2).

const HELP_WORDS = new Set(['--help', '-h', 'help']);

export type CommandLine =
  | { kind: 'help'; command?: string }
  | { kind: 'run'; command: string; args: string[] }
  | { kind: 'unknown'; typed: string; message: string };

/** The words typed before the first flag (what names a command). */
function wordsOf(argv: string[]): string[] {
  const end = argv.findIndex((arg) => arg.startsWith('-'));
  return end === -1 ? argv : argv.slice(0, end);
}

/** Reads `argv` (after `npm run cli --`) against the commands there are (`group action`). */
export function readCommandLine(argv: string[], commands: readonly string[]): CommandLine {
  if (argv.length === 0 || HELP_WORDS.has(argv[0])) {
    const [, ...rest] = argv;
    const asked = rest.slice(0, 2).join(' ');
    return commands.includes(asked) ? { kind: 'help', command: asked } : { kind: 'help' };
  }
  const command = argv.slice(0, 2).join(' ');
  // `--help` anywhere before a `--` (after which everything is a value).
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const wantsHelp = options.includes('--help') || options.includes('-h');
  if (wantsHelp) return commands.includes(command) ? { kind: 'help', command } : { kind: 'help' };
  if (commands.includes(command)) return { kind: 'run', command, args: argv.slice(2) };

  const words = wordsOf(argv);
  const typed = (words.length > 0 ? words.slice(0, 2) : [argv[0]]).join(' ');
  const group = words[0];
  const actions = commands.filter((c) => c.startsWith(`${group} `)).map((c) => c.slice(group.length + 1));
  const message =
    actions.length > 0
      ? `unknown command: "${typed}" (${group} commands: ${actions.join(', ')})`
      : `unknown command: "${typed}"`;
  return { kind: 'unknown', typed, message };
}

/**
 * One command's part of the usage text: its line (`  group action …`) and the lines indented below
 * it; the whole text when the command has none.
 */
export function commandUsage(usage: string, command: string): string {
  const lines = usage.split('\n');
  const start = lines.findIndex((line) => line === `  ${command}` || line.startsWith(`  ${command} `));
  if (start === -1) return usage;
  let end = start + 1;
  while (end < lines.length && lines[end].startsWith('      ')) end += 1;
  return `Usage: npm run cli -- ${lines[start].trim()}\n${lines.slice(start + 1, end).join('\n')}\n`;
}
