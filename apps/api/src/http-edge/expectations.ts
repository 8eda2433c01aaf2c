// `Expect: 100-continue` asks the server whether to send the body at all. Node answers
// "100 Continue" by itself unless the server listens to 'checkContinue'; we listen, so that a
// body the limit refuses (by its Content-Length) is answered with the final 413 before the client
// sends any of it. Other bodies get their 100 Continue and go through the server as usual. Any
// other Expect is 417 ('checkExpectation', otherwise a bare 417 from Node). Only requests carrying
// an Expect header come here: nothing is added to the others.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { errorCodes } from 'fastify';

import { type ErrorBody, mapError } from '@app/platform';

import { closeLingeringlyAfterResponse } from './lingering-close';
import { requestIdFor } from './request-id';

export interface ExpectationOptions {
  /** The server's body limit, in bytes. */
  bodyLimit: number;
  /** Headers every answer carries (the security headers). */
  headers: Record<string, string>;
  /** Told of each request refused here, which the server's own request log never sees. */
  onRefused?: (refusal: { reqId: string; method?: string; url?: string; status: number }) => void;
}

const TOO_LARGE = mapError(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());

const EXPECTATION_FAILED: ErrorBody = {
  code: 'EXPECTATION_FAILED',
  message: 'The only Expect this server supports is 100-continue',
};

export function installExpectationHandlers(server: Server, options: ExpectationOptions): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    // What Node does without this listener, unless the announced body is over the limit.
    if (Number(request.headers['content-length']) > options.bodyLimit) {
      refuse(request, response, TOO_LARGE.status, TOO_LARGE.body, options);
      return;
    }
    response.writeContinue();
    server.emit('request', request, response);
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    refuse(request, response, 417, EXPECTATION_FAILED, options);
  });
}

/** Answers in the API's error shape and closes the connection (lingeringly: a body may follow). */
function refuse(request: IncomingMessage, response: ServerResponse, status: number, body: ErrorBody, options: ExpectationOptions): void {
  const reqId = requestIdFor(request.headers);
  const text = JSON.stringify(body);
  closeLingeringlyAfterResponse(request.socket);
  response.writeHead(status, {
    ...options.headers,
    'x-request-id': reqId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  response.end(text);
  options.onRefused?.({ reqId, method: request.method, url: request.url, status });
}
