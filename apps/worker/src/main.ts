// `node dist/apps/worker/src/main.js`: runs the workers until SIGTERM/SIGINT.
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';

import { IpcChannel, loadStartupConfig, openStorage, ProjectionRunner, StartError } from '@app/platform';

import { WorkerModule } from './worker.module';

/** Nest's levels, most severe first: LOG_LEVEL keeps those up to its own (info and below: `log`). */
const NEST_LEVELS = ['fatal', 'error', 'warn', 'log'] as const;

async function main(): Promise<void> {
  const config = loadStartupConfig();
  const storage = await openStorage(config);
  // Started by the API (WORKER_MODE=process): linked to it over IPC, and gone when it is.
  const channel = IpcChannel.ofParent();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, channel ? { storage, workerChannel: channel } : { storage }), {
    logger: config.LOG_LEVEL === 'silent' ? false : NEST_LEVELS.slice(0, NEST_LEVELS.indexOf(config.LOG_LEVEL === 'info' || config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'log' : config.LOG_LEVEL) + 1),
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
  process.stdout.write(`worker running projections: ${app.get(ProjectionRunner).names().join(', ')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof StartError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
