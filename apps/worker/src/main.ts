// `node dist/apps/worker/src/main.js`: runs the workers until SIGTERM/SIGINT. It logs like the API
// (the same pino logger, LOG_FORMAT and LOG_LEVEL); a refused start is one plain line on stderr,
// as the API's (no logger exists before the configuration is read).
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';

import { announceReady, IpcChannel, loadStartupConfig, type LogFormat, openStorage, PinoNestLogger, processLoggerFor, ProjectionRunner, StartError } from '@app/platform';

import { WorkerModule } from './worker.module';

let logger: Logger | null = null;
let format: LogFormat = 'json';

async function main(): Promise<void> {
  const notes: string[] = [];
  const config = loadStartupConfig(process.env, (line) => notes.push(line));
  ({ logger, format } = processLoggerFor(config));
  for (const note of notes) logger?.warn(note);
  // A damaged or lost log, or a missing secrets key, stops the start here (one plain line).
  const storage = await openStorage(config, { report: (line) => logger?.warn(line) });
  // Started by the API (WORKER_MODE=process|background): linked to it over IPC, and gone when it is.
  const channel = IpcChannel.ofParent();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, channel ? { storage, workerChannel: channel } : { storage }), {
    logger: logger ? new PinoNestLogger(logger) : false,
  });
  app.enableShutdownHooks();
  await app.init();
  if (channel) {
    process.once('disconnect', () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  announceReady(logger, `worker running projections: ${app.get(ProjectionRunner).names().join(', ')}`, format);
}

main().catch((error: unknown) => {
  // The logger's stream is flushed on exit.
  if (logger && !(error instanceof StartError)) logger.fatal({ err: error }, 'worker failed to start');
  else process.stderr.write(`${error instanceof StartError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
