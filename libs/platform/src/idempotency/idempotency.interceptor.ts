// The `Idempotency-Key` header on authenticated POSTs: the first request with a key runs and its
// response is stored; a retry with the same key and request gets that response again, without a
// second effect. Runs after the auth guard (it needs the workspace) and before the body pipes, so
// validation failures are answers like any other and are replayed too.
import { type CallHandler, type ExecutionContext, Injectable, Logger, type NestInterceptor, StreamableFile } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defer, lastValueFrom, type Observable } from 'rxjs';

import { ApiError } from '../http/api-error';
import { mapError } from '../http/error-mapping';
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestFingerprint } from './idempotency-key';
import { type Claim, IdempotencyStore, type StoredResponse } from './idempotency.store';

/** GET, PUT and DELETE are idempotent by definition; POST (and later PATCH) are what retries duplicate. */
const METHODS = new Set(['POST']);

/** Response headers that belong to the answer itself and so are replayed with it. */
const REPLAYED_HEADERS = ['location', 'etag'];

/**
 * Whether an error answer pins the key. Server faults and "try again" answers do not (a retry
 * with the same key may run); anything else — validation failures included — is the answer.
 */
function pinsKey(status: number, code: string): boolean {
  if (status >= 500 || status === 429) return false;
  // A lost optimistic-concurrency race: the README tells the client to retry it.
  return !(status === 409 && code === 'CONFLICT');
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    // Without the header, the request goes through untouched.
    if (!METHODS.has(request.method) || !request.auth || request.headers[IDEMPOTENCY_HEADER] === undefined) return next.handle();
    // Deferred, and a promise underneath: once started, the handler and the record's update run
    // to the end even when the client goes away, so the key never stays claimed by a ghost.
    return defer(() => this.handle(request, http.getResponse<FastifyReply>(), next));
  }

  private async handle(request: FastifyRequest, reply: FastifyReply, next: CallHandler): Promise<unknown> {
    const key = readIdempotencyKey(request.headers, request.raw.rawHeaders);
    const auth = request.auth;
    if (key === undefined || !auth) return lastValueFrom(next.handle(), { defaultValue: undefined });

    const fingerprint = requestFingerprint(request.method, request.url, request.body);
    const outcome = await this.store.begin({ workspaceId: auth.workspaceId, key, fingerprint });
    switch (outcome.kind) {
      case 'claimed':
        return this.run(outcome.claim, request, reply, next);
      case 'replay':
        return replay(reply, outcome.response);
      case 'mismatch':
        throw new ApiError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used for a different request (method, path or body); use a new key for a new request',
        );
      case 'in_flight':
        void reply.header('retry-after', '1');
        throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
  }

  private async run(claim: Claim, request: FastifyRequest, reply: FastifyReply, next: CallHandler): Promise<unknown> {
    const requestId = String(request.id);
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      // The exception filter makes the response from the same mapping, so the replay matches it.
      const mapped = mapError(error);
      const stored = pinsKey(mapped.status, mapped.body.code) ? { status: mapped.status, body: mapped.body, headers: {}, requestId } : null;
      await this.settle(claim, stored);
      throw error;
    }
    // The route's status (@HttpCode or the method's default) is already on the reply.
    const status = reply.statusCode;
    // A handler that sent the reply itself (@Res without passthrough) leaves nothing to capture.
    const storable = status < 500 && !reply.sent && isJsonResult(result);
    await this.settle(claim, storable ? { status, body: toJson(result), headers: answerHeaders(reply), requestId } : null);
    return result;
  }

  /** Records the outcome. A failure here must not turn a done effect into an error response. */
  private async settle(claim: Claim, response: StoredResponse | null): Promise<void> {
    try {
      const kept = response ? await this.store.complete(claim, response) : await this.store.release(claim);
      if (!kept) this.logger.warn(`idempotency claim ${claim.id} was taken over before its request finished`);
    } catch (error) {
      this.logger.error(`could not record the outcome for idempotency key ${claim.id}`, error instanceof Error ? error.stack : String(error));
    }
  }
}

function replay(reply: FastifyReply, response: StoredResponse): unknown {
  void reply.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) void reply.header(name, value);
  void reply.header('idempotent-replayed', 'true');
  void reply.header('original-request', response.requestId);
  return response.body;
}

/** Streams and binary bodies cannot be stored as JSON; such answers do not pin the key. */
function isJsonResult(result: unknown): boolean {
  return !(result instanceof StreamableFile || Buffer.isBuffer(result) || result instanceof Uint8Array);
}

/** The body as the client received it (Fastify serializes with JSON.stringify too). */
function toJson(result: unknown): unknown {
  const text = JSON.stringify(result);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

function answerHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
  }
  return headers;
}
