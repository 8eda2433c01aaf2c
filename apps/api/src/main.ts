// `npm start`: the API (and, by default, the workers) on the embedded stores.
import 'reflect-metadata';

import { ConfigError, loadStartupConfig } from '@app/platform';

import { createApp, shutdownGracefully } from './bootstrap';

async function main(): Promise<void> {
  const config = loadStartupConfig();
  const app = await createApp(config);
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
    shutdownGracefully(app).then(
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
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
