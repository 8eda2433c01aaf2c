// Broken HTTP framing on a raw socket (fetch cannot send any of it): every malformed request is
// answered in the API's error shape `{code, message}` with a request id and the security headers,
// the connection is closed, and the server goes on serving. Pipelined requests before the broken
// one still get their own answers first.
import { removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { type RawResponse, rawExchange } from './support/raw-http';

const JSON_POST = 'POST /api/v1/buyer-requests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';

interface FramingCase {
  name: string;
  payload: string;
  endWrite?: boolean;
  status: number;
  /** What the message must mention, so a client can tell which framing rule was broken. */
  mentions: RegExp;
}

const CASES: FramingCase[] = [
  {
    name: 'Content-Length larger than the body, then the client ends its side',
    payload: `${JSON_POST}Content-Length: 100\r\n\r\n{"cardName":`,
    endWrite: true,
    status: 400,
    mentions: /ended before the request was complete/i,
  },
  { name: 'a garbage request line', payload: 'HELLO THERE\r\n\r\n', status: 400, mentions: /request line/i },
  { name: 'an unknown HTTP version', payload: 'GET /api/v1/health HTTP/9.9\r\n\r\n', status: 400, mentions: /version/i },
  { name: 'a space inside the request target', payload: 'GET /api/v1/a b HTTP/1.1\r\n\r\n', status: 400, mentions: /request line/i },
  { name: 'Content-Length: abc', payload: `${JSON_POST}Content-Length: abc\r\n\r\n`, status: 400, mentions: /Content-Length/ },
  {
    name: 'Transfer-Encoding: chunked together with Content-Length',
    payload: `${JSON_POST}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
    status: 400,
    mentions: /Content-Length.*Transfer-Encoding|Transfer-Encoding.*Content-Length/,
  },
  {
    name: 'a chunk size that is not hexadecimal',
    payload: `${JSON_POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    status: 400,
    mentions: /chunk/i,
  },
  {
    name: 'a header line without a colon',
    payload: 'GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nthis header has no colon\r\n\r\n',
    status: 400,
    mentions: /header/i,
  },
  {
    name: 'headers larger than the server accepts',
    payload: `GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    status: 431,
    mentions: /header/i,
  },
];

describe('malformed HTTP framing on a raw socket (e2e)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp();
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  async function expectStillServing(): Promise<void> {
    expect((await http(app.url, 'GET', '/api/v1/health')).status).toBe(200);
  }

  function expectFramingError(response: RawResponse | undefined, status: number, mentions: RegExp): void {
    expect(response?.status).toBe(status);
    expect(response?.json).toEqual({
      code: status === 431 ? 'HEADERS_TOO_LARGE' : 'INVALID_REQUEST',
      message: expect.stringMatching(mentions),
      details: { parserError: expect.stringMatching(/^HPE_/) },
    });
    expect(response?.headers['content-type']).toMatch(/^application\/json/);
    expect(response?.headers['content-length']).toBe(String(Buffer.byteLength(response?.body ?? '')));
    expect(response?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response?.headers['x-content-type-options']).toBe('nosniff');
    expect(response?.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response?.headers.connection).toBe('close');
  }

  it.each(CASES)('answers $name with $status in the error shape', async ({ payload, endWrite, status, mentions }) => {
    const exchange = await rawExchange(app.url, payload, { endWrite });
    expect(exchange.error).toBeUndefined();
    expect(exchange.responses).toHaveLength(1);
    expectFramingError(exchange.responses[0], status, mentions);
    await expectStillServing();
  });

  it('answers a pipelined good request first, then the malformed one after it', async () => {
    const good = 'GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n';
    const bad = 'GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n';
    const exchange = await rawExchange(app.url, good + bad);
    expect(exchange.error).toBeUndefined();
    expect(exchange.responses.map((r) => r.status)).toEqual([200, 400]);
    expect(exchange.responses[0].json).toEqual({ status: 'ok' });
    expectFramingError(exchange.responses[1], 400, /Content-Length/);
    await expectStillServing();
  });

  it('answers a body shorter than its Content-Length, then the garbage after it', async () => {
    // The first request is complete after 2 bytes (and refused for want of an API key); what
    // follows is read as the next request line.
    const exchange = await rawExchange(app.url, `${JSON_POST}Content-Length: 2\r\n\r\n{}garbage garbage\r\n\r\n`);
    expect(exchange.error).toBeUndefined();
    expect(exchange.responses.map((r) => r.status)).toEqual([401, 400]);
    expect(exchange.responses[0].json).toMatchObject({ code: 'UNAUTHORIZED' });
    expectFramingError(exchange.responses[1], 400, /request line/i);
    await expectStillServing();
  });
});
