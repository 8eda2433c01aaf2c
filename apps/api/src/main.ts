// `npm start`: the API (and, by default, the workers) on the embedded stores. With
// WORKER_MODE=process the workers run in a child process the API starts and supervises.
import 'reflect-metadata';

import { indexCatalogue } from '@app/catalog';
import { loadStartupConfig, openStorage, StartError } from '@app/platform';

import { createApp, shutdownGracefully } from './bootstrap';
import { listenRefusal, startLine } from './start-line';
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
  const fastify = app.getHttpAdapter().getInstance();
  // Fastify's listen, not Nest's (which logs a refusal as an error line of its own before
  // throwing it): a port in use or out of reach is one plain line, not a log entry and a stack.
  await app.init();
  try {
    await fastify.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    const refusal = listenRefusal(error, config);
    if (refusal === null) throw error;
    supervisor?.shuttingDown();
    await app.close().catch(() => undefined);
    await supervisor?.stop();
    throw new StartError(refusal);
  }
  // Nest's own lines, held until now (bufferLogs): module wiring, routes.
  app.flushLogs();
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  process.stdout.write(`${startLine(config, port)}\n`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
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
