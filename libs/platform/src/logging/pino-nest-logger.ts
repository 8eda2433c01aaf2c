// Nest's own log lines (bootstrap, module errors, every `new Logger(context)`) go through the
// process's pino logger, so everything a process prints is one JSON line per entry.
import type { LoggerService } from '@nestjs/common';
import type { BaseLogger } from 'pino';

type LogMethods = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;

export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: LogMethods) {}

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
