import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';

import { installExpectationHandlers } from './expectations';

const HEADERS = { 'x-content-type-options': 'nosniff' };

interface Sent {
  status?: number;
  headers?: Record<string, unknown>;
  body?: string;
  continued: boolean;
}

function exchange(headers: Record<string, string>): { request: object; response: object; sent: Sent; socket: Record<string, unknown> } {
  const sent: Sent = { continued: false };
  const socket: Record<string, unknown> = {};
  const request = { headers, method: 'POST', url: '/api/v1/buyer-requests', socket };
  const response = {
    writeContinue: () => (sent.continued = true),
    writeHead: (status: number, head: Record<string, unknown>) => Object.assign(sent, { status, headers: head }),
    end: (body: string) => (sent.body = body),
  };
  return { request, response, sent, socket };
}

describe('Expect handling before the body is sent', () => {
  let server: EventEmitter;
  let served: unknown[];
  let refused: unknown[];

  beforeEach(() => {
    server = new EventEmitter();
    served = [];
    refused = [];
    server.on('request', (request) => served.push(request));
    installExpectationHandlers(server as Server, { bodyLimit: 1000, headers: HEADERS, onRefused: (r) => refused.push(r) });
  });

  it('answers 100-continue with the final 413 when the announced body is over the limit', () => {
    const { request, response, sent, socket } = exchange({ expect: '100-continue', 'content-length': '1001', 'x-request-id': 'abc-1' });
    server.emit('checkContinue', request, response);
    expect(sent.continued).toBe(false);
    expect(served).toEqual([]);
    expect(sent.status).toBe(413);
    expect(sent.headers).toMatchObject({
      ...HEADERS,
      'x-request-id': 'abc-1',
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(sent.body ?? ''),
      connection: 'close',
    });
    expect(JSON.parse(sent.body ?? '')).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' });
    expect(typeof socket.destroySoon).toBe('function'); // the close will linger
    expect(refused).toEqual([{ reqId: 'abc-1', method: 'POST', url: '/api/v1/buyer-requests', status: 413 }]);
  });

  it.each([
    ['at the limit', { 'content-length': '1000' }],
    ['without a Content-Length (chunked)', { 'transfer-encoding': 'chunked' }],
  ])('continues a body %s and hands the request to the server', (_, headers) => {
    const { request, response, sent } = exchange({ expect: '100-continue', ...headers });
    server.emit('checkContinue', request, response);
    expect(sent.continued).toBe(true);
    expect(sent.status).toBeUndefined();
    expect(served).toEqual([request]);
  });

  it('answers any other Expect with 417 EXPECTATION_FAILED and a fresh request id', () => {
    const { request, response, sent } = exchange({ expect: 'teapot', 'x-request-id': 'not a sane id!' });
    server.emit('checkExpectation', request, response);
    expect(sent.status).toBe(417);
    expect(JSON.parse(sent.body ?? '')).toEqual({ code: 'EXPECTATION_FAILED', message: expect.stringContaining('100-continue') });
    expect(sent.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(served).toEqual([]);
  });
});
