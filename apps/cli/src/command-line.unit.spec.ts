import { commandUsage, readCommandLine } from './command-line';

const COMMANDS = ['workspace create', 'workspace limits', 'key create', 'trust audit'];

const USAGE = `Usage: npm run cli -- <command>

  workspace create --name <name> --slug <slug>
      Creates a workspace.
      Second line.
  workspace limits --workspace <slug>
      Sets limits.
  trust audit --seller <slug>
      Audits.
`;

describe('the CLI command line', () => {
  it('asks for help with no arguments, help, --help or -h', () => {
    for (const argv of [[], ['help'], ['--help'], ['-h']]) expect(readCommandLine(argv, COMMANDS)).toEqual({ kind: 'help' });
  });

  it("asks for one command's help with `help <command>` or the command with --help / -h", () => {
    expect(readCommandLine(['help', 'workspace', 'create'], COMMANDS)).toEqual({ kind: 'help', command: 'workspace create' });
    expect(readCommandLine(['workspace', 'create', '--help'], COMMANDS)).toEqual({ kind: 'help', command: 'workspace create' });
    expect(readCommandLine(['trust', 'audit', '--seller', 'x', '-h'], COMMANDS)).toEqual({ kind: 'help', command: 'trust audit' });
    // After `--`, a --help is a value.
    expect(readCommandLine(['workspace', 'create', '--name', 'x', '--', '--help'], COMMANDS)).toEqual({
      kind: 'run',
      command: 'workspace create',
      args: ['--name', 'x', '--', '--help'],
    });
  });

  it('runs a known command with the arguments after its two words', () => {
    expect(readCommandLine(['key', 'create', '--workspace', 'acme', '--name', 'ci'], COMMANDS)).toEqual({
      kind: 'run',
      command: 'key create',
      args: ['--workspace', 'acme', '--name', 'ci'],
    });
  });

  it('names an unknown command as typed, and the commands of a known group', () => {
    expect(readCommandLine(['frobnicate'], COMMANDS)).toEqual({ kind: 'unknown', typed: 'frobnicate', message: 'unknown command: "frobnicate"' });
    expect(readCommandLine(['workspace', 'delete', '--slug', 'x'], COMMANDS)).toEqual({
      kind: 'unknown',
      typed: 'workspace delete',
      message: 'unknown command: "workspace delete" (workspace commands: create, limits)',
    });
    expect(readCommandLine(['workspace'], COMMANDS)).toMatchObject({ kind: 'unknown', message: 'unknown command: "workspace" (workspace commands: create, limits)' });
    expect(readCommandLine(['--slug', 'x'], COMMANDS)).toMatchObject({ kind: 'unknown', typed: '--slug' });
  });

  it("cuts one command's usage out of the whole text", () => {
    expect(commandUsage(USAGE, 'workspace create')).toBe(
      'Usage: npm run cli -- workspace create --name <name> --slug <slug>\n      Creates a workspace.\n      Second line.\n',
    );
    expect(commandUsage(USAGE, 'trust audit')).toBe('Usage: npm run cli -- trust audit --seller <slug>\n      Audits.\n');
    expect(commandUsage(USAGE, 'key create')).toBe(USAGE);
  });
});
