// `npm run cli -- …`: administration on the same DATA_DIR as the server (safe while it runs).
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';

import { ConfigError, loadStartupConfig, mapError, openStorage, StartError } from '@app/platform';

import { CliModule } from './cli.module';
import { COMMANDS, UNGUARDED_COMMANDS, USAGE, UsageError } from './commands';

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  const handler = COMMANDS[`${group} ${action}`];
  if (!handler || argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(USAGE);
    return argv.length === 0 || argv.includes('--help') || argv.includes('-h') ? 0 : 2;
  }
  const config = loadStartupConfig();
  // The commands that look at or repair a log shorter than the read side start on it; no other does.
  const storage = await openStorage(config, { guardLog: !UNGUARDED_COMMANDS.has(`${group} ${action}`) });
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, { storage }), { logger: ['error'] });
  try {
    const output = await handler(app, rest);
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    // A command that printed its answer may still fail the check it ran (trust audit).
    return Number(process.exitCode ?? 0);
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `${error.message}\n`);
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
