// Builds the Fastify-backed Nest application: body limit, request ids, the error model for
// errors raised by Fastify itself (body parsing, limits), graceful shutdown. Unknown routes reach
// the exception filter through Nest's own not-found handler.
import { randomUUID } from 'node:crypto';

import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

import { type AppConfig, mapError } from '@app/platform';

import { AppModule } from './app.module';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Nest installs a Fastify error handler that turns Fastify's own errors into bare HttpExceptions,
 * losing their codes (FST_ERR_CTP_INVALID_JSON_BODY…). We install ours instead, which maps them to
 * the API's error model; errors inside route handlers still go through the Nest exception filter.
 */
class ApiFastifyAdapter extends FastifyAdapter {
  override setErrorHandler(): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance();
  }
}

export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new ApiFastifyAdapter({
    bodyLimit: 1024 * 1024,
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // Honour a caller's X-Request-Id when it is sane, else make one.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: config.LOG_LEVEL === 'silent' ? false : ['fatal', 'error', 'warn', 'log'],
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  // Errors raised before a route handler runs (malformed JSON, body too large, bad content type).
  fastify.setErrorHandler((error: unknown, request, reply) => {
    const mapped = mapError(error);
    if (mapped.unexpected) request.log.error({ err: error }, 'request failed');
    void reply.status(mapped.status).send(mapped.body);
  });
  app.enableShutdownHooks();
  return app;
}
