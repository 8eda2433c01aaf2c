import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

import { clientErrorAnswer, handleClientError, rawResponse } from './client-error';

const HEADERS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN' };

function parseError(code: string, reason?: string): Error & { code: string; reason?: string } {
  return Object.assign(new Error(`Parse Error: ${reason ?? ''}`), { code, reason });
}

/** Just enough of a net.Socket for the handler: what it writes, whether it ended or was destroyed. */
class FakeSocket extends EventEmitter {
  written: string[] = [];
  destroyed = false;
  writable = true;
  writableFinished = false;
  readableEnded = false;
  bytesRead = 0;
  _httpMessage: unknown = null;
  write(data: string): boolean {
    this.written.push(data);
    return true;
  }
  end(): void {
    this.writable = false;
    this.writableFinished = true;
  }
  destroy(): void {
    this.destroyed = true;
    this.writable = false;
  }
  resume(): void {}
}

function handle(error: Error, socket: FakeSocket): void {
  handleClientError(error, socket as unknown as Socket, HEADERS);
}

describe('client errors (broken framing) answered on the raw socket', () => {
  afterEach(() => jest.useRealTimers());

  it.each([
    ['HPE_INVALID_METHOD', 'Invalid method encountered', 'Malformed request line: Invalid method encountered'],
    ['HPE_INVALID_CONTENT_LENGTH', "Content-Length can't be present with Transfer-Encoding", "Invalid Content-Length header: Content-Length can't be present with Transfer-Encoding"],
    ['HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size', 'Malformed chunked body: Invalid character in chunk size'],
    ['HPE_INVALID_VERSION', 'Invalid HTTP version', 'Malformed request line: unsupported HTTP version'],
    ['HPE_INVALID_EOF_STATE', 'Invalid EOF state', 'The connection ended before the request was complete'],
    ['HPE_SOMETHING_NEW', 'Some new rule', 'Malformed HTTP request: Some new rule'],
  ])('answers %s with 400 INVALID_REQUEST and a message naming the rule', (code, reason, message) => {
    expect(clientErrorAnswer(parseError(code, reason))).toEqual({
      status: 400,
      body: { code: 'INVALID_REQUEST', message, details: { parserError: code } },
    });
  });

  it('answers a header overflow with 431 and a request timeout with 408', () => {
    expect(clientErrorAnswer(parseError('HPE_HEADER_OVERFLOW', 'Header overflow'))).toMatchObject({
      status: 431,
      body: { code: 'HEADERS_TOO_LARGE' },
    });
    expect(clientErrorAnswer(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))).toEqual({
      status: 408,
      body: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' },
    });
  });

  it('has no answer for a failing connection (ECONNRESET, EPIPE)', () => {
    expect(clientErrorAnswer(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(clientErrorAnswer(Object.assign(new Error('pipe'), { code: 'EPIPE' }))).toBeUndefined();
  });

  it('writes a complete HTTP/1.1 response that closes the connection', () => {
    const text = rawResponse({ status: 400, body: { code: 'INVALID_REQUEST', message: 'Malformed header line' } }, HEADERS);
    const [head, body] = text.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
    const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
    expect(headers).toMatchObject({
      ...HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(body)).toEqual({ code: 'INVALID_REQUEST', message: 'Malformed header line' });
  });

  it('answers, ends its side and destroys the socket once the client is done', () => {
    const socket = new FakeSocket();
    handle(parseError('HPE_INVALID_METHOD', 'Invalid method encountered'), socket);
    expect(socket.written).toHaveLength(1);
    expect(socket.written[0]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(socket.writable).toBe(false); // ended: a lingering close, not a reset
    expect(socket.destroyed).toBe(false);
    socket.emit('end');
    expect(socket.destroyed).toBe(true);
  });

  it('answers once, however often the parser repeats its error', () => {
    const socket = new FakeSocket();
    expect(handleClientError(parseError('HPE_INVALID_METHOD'), socket as unknown as Socket, HEADERS)).toBe('answered');
    expect(handleClientError(parseError('HPE_INVALID_METHOD'), socket as unknown as Socket, HEADERS)).toBe('repeated');
    expect(socket.written).toHaveLength(1);
  });

  it('gives up lingering after the time limit', () => {
    jest.useFakeTimers();
    const socket = new FakeSocket();
    handle(parseError('HPE_INVALID_HEADER_TOKEN'), socket);
    jest.advanceTimersByTime(4_999);
    expect(socket.destroyed).toBe(false);
    jest.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
  });

  it('stays silent on a reset or destroyed socket', () => {
    const reset = new FakeSocket();
    handle(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), reset);
    expect(reset.written).toEqual([]);
    expect(reset.destroyed).toBe(true);
    const gone = new FakeSocket();
    gone.destroyed = true;
    handle(parseError('HPE_INVALID_METHOD'), gone);
    expect(gone.written).toEqual([]);
  });

  it('lets the answer to an earlier pipelined request go first', async () => {
    const socket = new FakeSocket();
    const inFlight = Object.assign(new EventEmitter(), { req: { complete: true }, headersSent: false });
    socket._httpMessage = inFlight;
    handle(parseError('HPE_INVALID_METHOD'), socket);
    expect(socket.written).toEqual([]);
    socket.written.push('HTTP/1.1 200 OK…'); // the in-flight answer
    socket._httpMessage = null;
    inFlight.emit('finish');
    await new Promise((resolve) => setImmediate(resolve));
    expect(socket.written).toHaveLength(2);
    expect(socket.written[1]).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('answers at once when the broken request is the one in flight, unless its answer has begun', () => {
    const socket = new FakeSocket();
    socket._httpMessage = Object.assign(new EventEmitter(), { req: { complete: false }, headersSent: false });
    handle(parseError('HPE_INVALID_CHUNK_SIZE'), socket);
    expect(socket.written[0]).toMatch(/^HTTP\/1\.1 400 /);

    const begun = new FakeSocket();
    begun._httpMessage = Object.assign(new EventEmitter(), { req: { complete: false }, headersSent: true });
    handle(parseError('HPE_INVALID_CHUNK_SIZE'), begun);
    expect(begun.written).toEqual([]);
    expect(begun.destroyed).toBe(true);
  });
});
