// Requests Node's HTTP parser refuses (a broken request line, a bad Content-Length, Transfer-Encoding
// with Content-Length, a bad chunk, headers too large, a request too slow) never reach Fastify: the
// server emits 'clientError' with the socket. They are answered here, on the raw socket, in the
// API's error shape and with the headers every answer carries — then the connection is closed.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import type { ErrorBody } from '@app/platform';

import { lingeringClose } from './lingering-close';

export interface ClientError extends Error {
  code?: string;
  /** llhttp's own words for a parse error ("Invalid character in Content-Length"). */
  reason?: string;
}

export interface ClientErrorAnswer {
  status: number;
  body: ErrorBody;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

/** What each llhttp error (HPE_*) means to a client; llhttp's reason follows when it says more. */
const PARSE_ERRORS: Record<string, { message: string; withReason: boolean }> = {
  HPE_INVALID_METHOD: { message: 'Malformed request line', withReason: true },
  HPE_INVALID_URL: { message: 'Malformed request line', withReason: true },
  HPE_INVALID_CONSTANT: { message: 'Malformed request line', withReason: true },
  HPE_INVALID_VERSION: { message: 'Malformed request line: unsupported HTTP version', withReason: false },
  HPE_INVALID_HEADER_TOKEN: { message: 'Malformed header line', withReason: true },
  HPE_INVALID_CONTENT_LENGTH: { message: 'Invalid Content-Length header', withReason: true },
  HPE_UNEXPECTED_CONTENT_LENGTH: { message: 'Invalid Content-Length header', withReason: true },
  HPE_INVALID_TRANSFER_ENCODING: { message: 'Invalid Transfer-Encoding header', withReason: true },
  HPE_INVALID_CHUNK_SIZE: { message: 'Malformed chunked body', withReason: true },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { message: 'Malformed chunked body: chunk extensions too long', withReason: false },
  HPE_STRICT: { message: 'Malformed line ending or chunk', withReason: true },
  HPE_CR_EXPECTED: { message: 'Malformed line ending', withReason: true },
  HPE_LF_EXPECTED: { message: 'Malformed line ending', withReason: true },
  HPE_INVALID_EOF_STATE: { message: 'The connection ended before the request was complete', withReason: false },
};

/** A socket-level failure (ECONNRESET, EPIPE…): nobody is left to answer. */
const SOCKET_ERRNO = /^E[A-Z]+$/;

/** The answer to a client error, or undefined when the connection is to be dropped silently. */
export function clientErrorAnswer(error: ClientError): ClientErrorAnswer | undefined {
  const code = error.code ?? '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, body: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' } };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      body: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large', details: { parserError: code } },
    };
  }
  if (SOCKET_ERRNO.test(code)) return undefined;
  const known = PARSE_ERRORS[code];
  const reason = typeof error.reason === 'string' && error.reason ? error.reason : undefined;
  const base = known?.message ?? 'Malformed HTTP request';
  const message = reason && (known?.withReason ?? true) ? `${base}: ${reason}` : base;
  return { status: 400, body: code ? { code: 'INVALID_REQUEST', message, details: { parserError: code } } : { code: 'INVALID_REQUEST', message } };
}

/** A complete HTTP/1.1 response that closes the connection, as bytes for a raw socket. */
export function rawResponse(answer: ClientErrorAnswer, headers: Record<string, string>): string {
  const body = JSON.stringify(answer.body);
  const lines = [`HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? 'Error'}`];
  for (const [name, value] of Object.entries({
    ...headers,
    'x-request-id': randomUUID(),
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    date: new Date().toUTCString(),
    connection: 'close',
  })) {
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

interface HttpSocket extends Socket {
  /** The response Node's HTTP server is writing on this socket now (internal, as in Node's own handler). */
  _httpMessage?: ServerResponse | null;
}

const answered = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`. An answer already under way on the socket comes first: a
 * pipelined request parsed before the broken one gets its own answer, then ours follows. A broken
 * request whose answer has begun cannot be answered again: its connection is dropped. Says what it
 * did, so that the caller logs each broken connection once.
 */
export function handleClientError(error: ClientError, socket: Socket, headers: Record<string, string>): 'answered' | 'dropped' | 'repeated' {
  if (answered.has(socket)) return 'repeated'; // the parser repeats its error for every later packet
  const answer = clientErrorAnswer(error);
  if (!answer || socket.destroyed) {
    socket.destroy();
    return 'dropped';
  }
  answered.add(socket);
  answerAfterInFlight(socket as HttpSocket, answer, headers);
  return 'answered';
}

function answerAfterInFlight(socket: HttpSocket, answer: ClientErrorAnswer, headers: Record<string, string>): void {
  const inFlight = socket._httpMessage;
  if (inFlight && inFlight.req.complete) {
    let done = false;
    const next = (): void => {
      if (done) return;
      done = true;
      answerAfterInFlight(socket, answer, headers);
    };
    inFlight.once('finish', () => setImmediate(next));
    inFlight.once('close', () => setImmediate(next));
    return;
  }
  // Already closing (the answer before ours carried Connection: close): Node finishes that close.
  if (socket.destroyed || !socket.writable) return;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.write(rawResponse(answer, headers));
  lingeringClose(socket);
}
