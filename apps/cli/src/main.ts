// `npm run cli -- …`: administration on the same DATA_DIR as the server (safe while it runs).
// A command's answer is JSON on stdout; help is on stdout too (exit 0); an unknown command or a
// bad flag is named on stderr with the usage (exit 2); a refused command is its error as JSON on
// stderr (exit 1).
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';

import { ConfigError, loadStartupConfig, mapError, openStorage, StartError } from '@app/platform';

import { CliModule } from './cli.module';
import { commandUsage, readCommandLine } from './command-line';
import { COMMANDS, UNGUARDED_COMMANDS, USAGE, UsageError } from './commands';

/** What follows the usage in `--help`. */
const HELP_FOOTER = `
Every command prints its answer as JSON on stdout. npm prints its own "> cli" banner there first:
\`npm run -s cli -- …\` leaves the JSON alone (to pipe into jq). The CLI reads the same
environment as the server (DATA_DIR, …): run it with the server's.
`;

const ALL_COMMANDS = 'All commands: npm run cli -- --help\n';

async function main(argv: string[]): Promise<number> {
  const line = readCommandLine(argv, Object.keys(COMMANDS));
  if (line.kind === 'help') {
    process.stdout.write(line.command ? `${commandUsage(USAGE, line.command)}\n${ALL_COMMANDS}` : `${USAGE}${HELP_FOOTER}`);
    return 0;
  }
  if (line.kind === 'unknown') {
    process.stderr.write(`${line.message}\n\n${USAGE}`);
    return 2;
  }
  const { command, args } = line;
  const config = loadStartupConfig();
  // The commands that look at or repair a log shorter than the read side start on it; no other does.
  const storage = await openStorage(config, { guardLog: !UNGUARDED_COMMANDS.has(command) });
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, { storage }), { logger: ['error'] });
  try {
    const output = await COMMANDS[command](app, args);
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    // A command that printed its answer may still fail the check it ran (trust audit).
    return Number(process.exitCode ?? 0);
  } catch (error) {
    // A bad flag: named, with the usage of the command it was given to.
    if (error instanceof UsageError) throw new UsageError(`${error.message}\n\n${commandUsage(USAGE, command)}\n${ALL_COMMANDS.trimEnd()}`);
    throw error;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof StartError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    const mapped = mapError(error);
    process.stderr.write(`${JSON.stringify(mapped.body)}\n`);
    if (mapped.unexpected && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
    process.exit(1);
  },
);
