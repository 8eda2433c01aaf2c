// The `Idempotency-Key` header on authenticated POSTs: the first request with a key runs and its
// response is stored; a retry with the same key and request gets that response again, without a
// second effect. Runs after the auth guard (it needs the workspace) and before the body pipes, so
// validation failures are answers like any other and are replayed too. A sensitive route's answer
// (it holds a secret shown once) is stored sealed with the SecretBox, never in clear.
import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  Logger,
  type NestInterceptor,
  Optional,
  StreamableFile,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defer, lastValueFrom, type Observable } from 'rxjs';

import { SECRET_BOX, SecretBox } from '../crypto/secret-box';
import { ApiError } from '../http/api-error';
import { mapError } from '../http/error-mapping';
import { IDEMPOTENT_OPTIONS, type IdempotentOptions } from './idempotent-options';
import { IDEMPOTENCY_HEADER, idempotencyRecordId, readIdempotencyKey, requestFingerprint } from './idempotency-key';
import { type Claim, IdempotencyStore, type StoredResponse } from './idempotency.store';
import { openResponse, sealedResponseContext, sealResponse } from './sealed-response';

/** GET, PUT and DELETE are idempotent by definition; POST (and later PATCH) are what retries duplicate. */
const METHODS = new Set(['POST']);

/** Response headers that belong to the answer itself and so are replayed with it. */
const REPLAYED_HEADERS = ['location', 'etag'];

/**
 * Whether an error answer pins the key. Server faults and "try again" answers do not (a retry
 * with the same key may run); anything else — validation failures included — is the answer.
 */
function pinsKey(status: number, code: string, details?: Record<string, unknown>): boolean {
  // A write the log holds though its answer is a 503 (its read model had no room): running it
  // again would do it twice.
  if (details?.recorded === true) return true;
  if (status >= 500 || status === 429) return false;
  // A lost optimistic-concurrency race: the README tells the client to retry it.
  return !(status === 409 && code === 'CONFLICT');
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('idempotency');

  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
    // Optional so that modules without sensitive routes (tests) need no key; a sensitive route
    // refuses to run without it rather than store its secret in clear.
    @Optional() @Inject(SECRET_BOX) private readonly box?: SecretBox,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    // Without the header, the request goes through untouched.
    if (!METHODS.has(request.method) || !request.auth || request.headers[IDEMPOTENCY_HEADER] === undefined) return next.handle();
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_OPTIONS, context.getHandler());
    const sensitive = options?.sensitive === true;
    // Deferred, and a promise underneath: once started, the handler and the record's update run
    // to the end even when the client goes away, so the key never stays claimed by a ghost.
    return defer(() => this.handle(request, http.getResponse<FastifyReply>(), next, sensitive));
  }

  private async handle(request: FastifyRequest, reply: FastifyReply, next: CallHandler, sensitive: boolean): Promise<unknown> {
    const key = readIdempotencyKey(request.headers, request.raw.rawHeaders);
    const auth = request.auth;
    if (key === undefined || !auth) return lastValueFrom(next.handle(), { defaultValue: undefined });
    // Before any effect: a secret answer is never kept in clear for want of a key.
    const box = this.box;
    if (sensitive && !box) throw new Error('@Idempotent({ sensitive: true }) needs the SecretBox (SECRET_BOX), which is not provided');

    const fingerprint = requestFingerprint(request.method, request.url, request.body);
    const outcome = await this.store.begin({ workspaceId: auth.workspaceId, key, fingerprint });
    switch (outcome.kind) {
      case 'claimed': {
        const context = sealedResponseContext(auth.workspaceId, outcome.claim.id);
        // Every answer of a sensitive route is sealed, error answers too: one rule, nothing to judge.
        const keep = box && sensitive ? (response: StoredResponse) => sealResponse(box, response, context) : (response: StoredResponse) => response;
        return this.run(outcome.claim, request, reply, next, keep);
      }
      case 'replay':
        // Whether the stored body is sealed is read from the record, not the route.
        return replay(reply, this.opened(outcome.response, auth.workspaceId, idempotencyRecordId(auth.workspaceId, key)));
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

  private async run(
    claim: Claim,
    request: FastifyRequest,
    reply: FastifyReply,
    next: CallHandler,
    keep: (response: StoredResponse) => StoredResponse,
  ): Promise<unknown> {
    const requestId = String(request.id);
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      // The exception filter makes the response from the same mapping, so the replay matches it.
      const mapped = mapError(error);
      const stored = pinsKey(mapped.status, mapped.body.code, mapped.body.details) ? { status: mapped.status, body: mapped.body, headers: {}, requestId } : null;
      await this.settle(claim, stored, keep);
      throw error;
    }
    // The route's status (@HttpCode or the method's default) is already on the reply.
    const status = reply.statusCode;
    // A handler that sent the reply itself (@Res without passthrough) leaves nothing to capture.
    const storable = status < 500 && !reply.sent && isJsonResult(result);
    await this.settle(claim, storable ? { status, body: toJson(result), headers: answerHeaders(reply), requestId } : null, keep);
    return result;
  }

  /** Records the outcome. A failure here must not turn a done effect into an error response. */
  private async settle(claim: Claim, response: StoredResponse | null, keep: (response: StoredResponse) => StoredResponse): Promise<void> {
    try {
      const kept = response ? await this.store.complete(claim, keep(response)) : await this.store.release(claim);
      if (!kept) this.logger.warn(`idempotency claim ${claim.id} was taken over before its request finished`);
    } catch (error) {
      this.logger.error(`could not record the outcome for idempotency key ${claim.id}`, error instanceof Error ? error.stack : String(error));
    }
  }

  /**
   * The stored answer with its body opened. When it does not open (the key changed, or the record
   * was altered) the effect has happened but its answer is lost: say so. Never logs the body.
   */
  private opened(response: StoredResponse, workspaceId: string, recordId: string): StoredResponse {
    try {
      return openResponse(this.box, response, sealedResponseContext(workspaceId, recordId));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`idempotency record ${recordId}: its sealed answer cannot be opened, answering 409 IDEMPOTENCY_REPLAY_UNAVAILABLE (${reason})`);
      throw new ApiError(
        409,
        'IDEMPOTENCY_REPLAY_UNAVAILABLE',
        'The original answer to this Idempotency-Key can no longer be replayed: it was sealed with a key this server no longer has. ' +
          'The request already took effect; it will not run again',
      );
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
