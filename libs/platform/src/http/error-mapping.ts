// Maps anything thrown while serving a request to a status and an ErrorBody. Unknown errors become
// 500 INTERNAL with a generic message: no stack trace or internal detail ever leaves the server. A
// storage fault (disk full, read-only) is a condition of the machine, not a bug: 503 with Retry-After.
import { HttpException } from '@nestjs/common';

import { DomainError } from '../domain/domain-error';
import { etagOf, PreconditionFailedError } from '../domain/precondition';
import { WrongExpectedRevisionError } from '../event-store/event-store.port';
import { DuplicateKeyError, InvalidCursorError } from '../read-store/read-store.port';
import { RecordedNotVisibleError, STORAGE_RETRY_AFTER_SECONDS, storageFaultOf } from '../sqlite/storage-fault';
import { ApiError, type ErrorBody } from './api-error';

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** True when this is a server fault worth logging with its stack. */
  unexpected: boolean;
  /** Response headers that go with the answer (Retry-After). */
  headers?: Record<string, string>;
}

const STORAGE_ERRORS = {
  full: { code: 'STORAGE_FULL', message: "The server's storage is full" },
  read_only: { code: 'STORAGE_READ_ONLY', message: "The server's storage is read-only" },
} as const;

const DOMAIN_STATUS: Record<DomainError['code'], number> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_TRANSITION: 409,
  VALIDATION_FAILED: 400,
  LIMIT_EXCEEDED: 409,
  INSUFFICIENT_QUANTITY: 409,
  RESERVE_TOO_LOW: 409,
};

/** Fastify's own error codes (body parsing, limits, content types) as API errors. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'INVALID_JSON',
    message: 'The request body is empty but Content-Type is application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported Content-Type: send application/json (or text/csv where a route accepts it)',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'INVALID_REQUEST', message: 'The URL is malformed (invalid percent-encoding)' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', message: 'A path parameter is too long' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'INVALID_REQUEST',
    message: 'Content-Length does not match the body',
  },
};

const HTTP_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export function mapError(error: unknown): MappedError {
  if (error instanceof ApiError) return ok(error.status, error.code, error.message, error.details);
  if (error instanceof DomainError) return ok(DOMAIN_STATUS[error.code], error.code, error.message, error.details);
  if (error instanceof WrongExpectedRevisionError) {
    return ok(409, 'CONFLICT', 'The resource was changed concurrently; retry the request');
  }
  if (error instanceof DuplicateKeyError) return ok(409, 'CONFLICT', 'A resource with the same unique key exists');
  if (error instanceof InvalidCursorError) {
    return ok(400, 'VALIDATION_FAILED', 'Invalid pagination cursor', { issues: [{ path: 'cursor', message: 'invalid cursor' }] });
  }
  if (error instanceof PreconditionFailedError) {
    return ok(412, 'PRECONDITION_FAILED', error.message, { expectedETag: etagOf(error.expected), currentETag: etagOf(error.actual) });
  }
  if (error instanceof RecordedNotVisibleError) return recordedNotVisible(error);
  const storage = storageFaultOf(error);
  if (storage === 'corrupt') {
    // Waiting does not mend a damaged file: no Retry-After.
    return ok(503, 'STORAGE_CORRUPT', "The server's storage is damaged: nothing of this write was kept. Writes are refused until an operator restores it.");
  }
  if (storage !== undefined) {
    const { code, message } = STORAGE_ERRORS[storage];
    const wait = STORAGE_RETRY_AFTER_SECONDS;
    return {
      ...ok(503, code, `${message}: nothing of this write was kept. Retry after ${wait} seconds.`, { retry_after: wait }),
      headers: { 'retry-after': String(wait) },
    };
  }
  const fastifyCode = fastifyErrorCode(error);
  if (fastifyCode && FASTIFY_ERRORS[fastifyCode]) {
    const known = FASTIFY_ERRORS[fastifyCode];
    return ok(known.status, known.code, known.message);
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status < 500) {
      return ok(status, HTTP_CODES[status] ?? 'INVALID_REQUEST', error.message);
    }
  }
  const status = httpStatusOf(error);
  if (status !== undefined && status >= 400 && status < 500) {
    return ok(status, HTTP_CODES[status] ?? 'INVALID_REQUEST', error instanceof Error ? error.message : 'Bad request');
  }
  return { status: 500, body: { code: 'INTERNAL', message: 'An internal error occurred' }, unexpected: true };
}

/** 503 for a write the log holds but its read model cannot: the client must not send it again. */
function recordedNotVisible(error: RecordedNotVisibleError): MappedError {
  const code = error.kind === 'corrupt' ? 'STORAGE_CORRUPT' : STORAGE_ERRORS[error.kind].code;
  const why = error.kind === 'corrupt' ? 'is damaged' : error.kind === 'full' ? 'is full' : 'is read-only';
  const wait = STORAGE_RETRY_AFTER_SECONDS;
  const message =
    `This write was recorded in the event log (it is durable: do not send it again), but the server's storage ${why}, ` +
    'so its read model cannot show it yet; it appears once there is room.';
  if (error.kind === 'corrupt') return ok(503, code, message, { recorded: true, position: error.position });
  return { ...ok(503, code, message, { retry_after: wait, recorded: true, position: error.position }), headers: { 'retry-after': String(wait) } };
}

function ok(status: number, code: string, message: string, details?: Record<string, unknown>): MappedError {
  return { status, body: details ? { code, message, details } : { code, message }, unexpected: false };
}

function fastifyErrorCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

function httpStatusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'statusCode' in error && typeof error.statusCode === 'number') {
    return error.statusCode;
  }
  return undefined;
}
