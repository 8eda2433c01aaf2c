// `node dist/apps/worker/src/main.js`: runs the workers until SIGTERM/SIGINT.
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';

import { ConfigError, loadStartupConfig, ProjectionRunner } from '@app/platform';

import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const config = loadStartupConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: config.LOG_LEVEL === 'silent' ? false : ['fatal', 'error', 'warn', 'log'],
  });
  app.enableShutdownHooks();
  await app.init();
  process.stdout.write(`worker running projections: ${app.get(ProjectionRunner).names().join(', ')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
