// Nest's own log lines (bootstrap, module errors) go through the same pino logger as Fastify's
// request logs, so everything the process prints is one JSON line per entry.
import type { LoggerService } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';

export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: FastifyBaseLogger) {}

  log(message: unknown, context?: string): void {
    this.pino.info({ context }, String(message));
  }

  error(message: unknown, stackOrContext?: string, context?: string): void {
    const [stack, ctx] = context === undefined ? [undefined, stackOrContext] : [stackOrContext, context];
    this.pino.error({ context: ctx, stack }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.pino.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.pino.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.pino.trace({ context }, String(message));
  }

  fatal(message: unknown, context?: string): void {
    this.pino.fatal({ context }, String(message));
  }
}
