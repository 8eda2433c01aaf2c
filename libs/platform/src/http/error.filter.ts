// The single exception filter: every error leaves as `{ code, message, details? }`.
import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { mapError } from './error-mapping';

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const mapped = mapError(exception);
    if (mapped.unexpected) {
      this.logger.error(
        `${request.method} ${request.url} [${String(request.id)}] failed`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (mapped.headers) void reply.headers(mapped.headers);
    void reply.status(mapped.status).send(mapped.body);
  }
}
