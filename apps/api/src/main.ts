// `npm start`: the API (and, by default, the workers) on the embedded stores. With
// WORKER_MODE=process the workers run in a child process the API starts and supervises.
import 'reflect-metadata';

import { indexCatalogue } from '@app/catalog';
import { loadStartupConfig, openStorage, StartError } from '@app/platform';

import { createApp, shutdownGracefully } from './bootstrap';
import { WorkerSupervisor } from './worker-supervisor';

async function main(): Promise<void> {
  const config = loadStartupConfig();
  // Before anything else runs: a damaged or lost log, or a missing secrets key, stops the start here.
  const storage = await openStorage(config);
  // WORKER_MODE=process|background: a worker process beside this one takes all the workers, or the
  // background ones (this process keeps the read-your-writes lane); see workerDuties.
  const split = config.RUN_WORKERS && config.WORKER_MODE !== 'inline' && config.WORKER_ROLE === undefined;
  const log = { info: (m: string) => process.stdout.write(`${m}\n`), error: (m: string) => process.stderr.write(`${m}\n`) };
  const supervisor = split ? new WorkerSupervisor(log, config.WORKER_MODE === 'process' ? 'all' : 'background') : null;
  supervisor?.start();
  const app = await createApp(config, supervisor ? { storage, workerChannel: supervisor.channel } : { storage });
  // The card catalogue's indexes, which every buyer request and item reads: built now, not by the
  // first write after a start.
  indexCatalogue();
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.getHttpAdapter().getInstance().server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
  process.stdout.write(`listening on http://${host}:${port} (data in ${config.DATA_DIR})\n`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const fastify = app.getHttpAdapter().getInstance();
    fastify.log.info({ signal }, 'shutting down');
    supervisor?.shuttingDown();
    shutdownGracefully(app)
      .then(() => supervisor?.stop())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          fastify.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof StartError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
