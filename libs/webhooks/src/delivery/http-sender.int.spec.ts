// Integration tests for the webhook HTTP sender against real local servers (127.0.0.1, random ports): outcomes,
// bounds (time, body size), redirects, Retry-After, SSRF refusal before connecting, byte-exact requests, keep-alive,
// and stale keep-alive sockets (idle expiry, the one retry on a new connection, and when it must not happen).
import type * as dns from 'node:dns';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Arrival, dropAfterIdle, KeepAliveReceiver, type Reaction } from '@app/testing/support/keep-alive-receiver';
import { USER_AGENT, WebhookSender, parseRetryAfter, type SendRequest } from './http-sender';
import type { TargetPolicy } from './target-guard';

const local: TargetPolicy = { allowHttp: true, allowPrivate: true };
const publicOnly: TargetPolicy = { allowHttp: true, allowPrivate: false };

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

interface TestServer {
  url: (path?: string) => string;
  port: number;
  received: Received[];
  connections: () => number;
  close: () => Promise<void>;
}

const servers: TestServer[] = [];
const senders: WebhookSender[] = [];
const receivers: KeepAliveReceiver[] = [];

async function startServer(
  respond: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  options: http.ServerOptions = {},
): Promise<TestServer> {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer(options, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      respond(req, res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testServer: TestServer = {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(testServer);
  return testServer;
}

async function startReceiver(react: (arrival: Arrival) => Reaction): Promise<KeepAliveReceiver> {
  const receiver = await new KeepAliveReceiver(react).start();
  receivers.push(receiver);
  return receiver;
}

function newSender(options?: ConstructorParameters<typeof WebhookSender>[0]): WebhookSender {
  const sender = new WebhookSender(options);
  senders.push(sender);
  return sender;
}

function request(url: string, overrides: Partial<SendRequest> = {}): SendRequest {
  return { url, body: '{"hello":"world"}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2000, policy: local, ...overrides };
}

/** A dns.lookup stand-in answering every host with 127.0.0.1, in the form guardedLookup asks for (all: true). */
function resolveToLoopback(): typeof dns.lookup & { hosts: string[] } {
  const hosts: string[] = [];
  const resolve = (hostname: string, _options: dns.LookupOptions, callback: (err: null, addresses: dns.LookupAddress[]) => void) => {
    hosts.push(hostname);
    process.nextTick(() => callback(null, [{ address: '127.0.0.1', family: 4 }]));
  };
  return Object.assign(resolve as unknown as typeof dns.lookup, { hosts });
}

async function unusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

afterAll(async () => {
  for (const sender of senders) sender.close();
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(receivers.map((receiver) => receiver.stop()));
});

describe('WebhookSender', () => {
  it('reports a 2xx answer as ok with its body', async () => {
    const server = await startServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks'));
    const result = await newSender().send(request(server.url()));
    expect(result).toEqual({ status: 200, durationMs: expect.any(Number), responseBody: 'thanks', error: null, retryAfterMs: null, ok: true });
    expect(Number.isInteger(result.durationMs)).toBe(true);
    expect(server.received).toHaveLength(1);
    expect(server.received[0].method).toBe('POST');
  });

  it('reports a 500 as not ok, with status and body and no error', async () => {
    const server = await startServer((_req, res) => res.writeHead(500).end('boom'));
    expect(await newSender().send(request(server.url()))).toMatchObject({ status: 500, responseBody: 'boom', error: null, ok: false });
  });

  it('does not follow redirects', async () => {
    const target = await startServer((_req, res) => res.writeHead(200).end());
    const server = await startServer((_req, res) => res.writeHead(302, { Location: target.url('/elsewhere') }).end());
    const result = await newSender().send(request(server.url()));
    expect(result).toMatchObject({ status: 302, error: null, ok: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.received).toHaveLength(0);
    expect(target.connections()).toBe(0);
  });

  it('times out a server that never answers', async () => {
    const server = await startServer(() => undefined);
    const result = await newSender().send(request(server.url(), { timeoutMs: 200 }));
    expect(result).toMatchObject({ status: null, error: 'timeout after 200 ms', ok: false, responseBody: '' });
    // It waited its 200 ms: a lower bound only (a busy machine may fire the timer late, never early).
    expect(result.durationMs).toBeGreaterThanOrEqual(195);
  });

  it('times out a body that does not finish, keeping the status but failing the delivery', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const result = await newSender().send(request(server.url(), { timeoutMs: 200 }));
    expect(result).toMatchObject({ status: 200, error: 'timeout after 200 ms', ok: false, responseBody: 'partial' });
  });

  it('fails a delivery whose connection drops in the middle of the body, keeping the status', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('only part', () => res.socket?.destroy());
    });
    const result = await newSender().send(request(server.url()));
    expect(result).toMatchObject({ status: 200, ok: false, responseBody: 'only part' });
    expect(result.error).toEqual(expect.any(String));
  });

  it('keeps exactly the first 4096 bytes of a larger body', async () => {
    const body = Array.from({ length: 10_240 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const server = await startServer((_req, res) => res.writeHead(200).end(body));
    const result = await newSender().send(request(server.url()));
    expect(result.ok).toBe(true);
    expect(result.responseBody).toBe(body.slice(0, 4096));
  });

  it('stops reading an endless body after 64 KiB and still reports the answer', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    // A time-out far off: the sender stops because of the 64 KiB, not the timer (`error: null`).
    const result = await newSender().send(request(server.url(), { timeoutMs: 20_000 }));
    expect(result).toMatchObject({ status: 200, ok: true, error: null });
    expect(result.responseBody).toBe('x'.repeat(4096));
  });

  it('parses Retry-After as delta-seconds and as an HTTP-date', async () => {
    const seconds = await startServer((_req, res) => res.writeHead(429, { 'Retry-After': '7' }).end());
    // An hour ahead, to the second: read back as an hour less the time the answer took to be
    // read (a minute's slack for a busy machine) and the sub-second part the date format drops.
    const date = await startServer((_req, res) => res.writeHead(503, { 'Retry-After': new Date(Date.now() + 3_600_000).toUTCString() }).end());
    const sender = newSender();
    expect(await sender.send(request(seconds.url()))).toMatchObject({ status: 429, retryAfterMs: 7000, ok: false });
    const dated = await sender.send(request(date.url()));
    expect(dated.status).toBe(503);
    expect(dated.retryAfterMs).toBeGreaterThan(3_540_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(3_600_000);
  });

  it.each([
    ['7', 7000],
    ['0', 0],
    [' 120 ', 120_000],
    ['Sun, 06 Nov 1994 08:49:37 GMT', 0],
    ['Wed, 21 Oct 2015 07:28:10 GMT', 1000],
    ['-5', null],
    ['7.5', null],
    ['soon', null],
    ['', null],
    [undefined, null],
  ])('parseRetryAfter(%j) = %j', (value, expected) => {
    expect(parseRetryAfter(value, Date.parse('Wed, 21 Oct 2015 07:28:09 GMT'))).toBe(expected);
  });

  it('reports a refused connection without a status', async () => {
    const port = await unusedPort();
    const result = await newSender().send(request(`http://127.0.0.1:${port}/hook`));
    expect(result).toMatchObject({ status: null, ok: false, responseBody: '', retryAfterMs: null });
    expect(result.error).toBe('ECONNREFUSED');
  });

  it('refuses a private IP literal before connecting', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const result = await newSender().send(request(server.url(), { policy: publicOnly }));
    expect(result).toMatchObject({ status: null, ok: false, error: 'private address refused (127.0.0.1)' });
    expect(server.connections()).toBe(0);
  });

  it('refuses a host name that resolves to a private address, before connecting', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const resolve = resolveToLoopback();
    const result = await newSender({ resolve }).send(request(`http://hooks.example.test:${server.port}/hook`, { policy: publicOnly }));
    expect(result).toMatchObject({ status: null, ok: false, error: 'private address refused (127.0.0.1)' });
    expect(resolve.hosts).toEqual(['hooks.example.test']);
    expect(server.connections()).toBe(0);
  });

  it('connects through the injected resolver when private targets are allowed', async () => {
    const server = await startServer((_req, res) => res.writeHead(204).end());
    const resolve = resolveToLoopback();
    const result = await newSender({ resolve }).send(request(`http://hooks.example.test:${server.port}/hook`));
    expect(result).toMatchObject({ status: 204, ok: true, error: null });
    expect(server.received[0].headers.host).toBe(`hooks.example.test:${server.port}`);
  });

  it('refuses a url that fails the syntax rules', async () => {
    const result = await newSender().send(request('http://127.0.0.1:1/hook', { policy: { allowHttp: false, allowPrivate: true } }));
    expect(result).toMatchObject({ status: null, ok: false, error: 'url must use https (set WEBHOOK_ALLOW_HTTP=true for local development)' });
  });

  it('sends the headers and the raw body byte-exact, with Content-Length and User-Agent and without cookies', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const body = '{"event":"offer.created","name":"Pokémon ✓","n":1}';
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Webhook-Id': 'msg_01J0000000000000000000000',
      'Webhook-Signature': 'v1,abc+/=',
      Cookie: 'session=secret',
      'User-Agent': 'spoofed',
      'Content-Length': '1',
    };
    const result = await newSender().send(request(server.url('/in?x=1'), { body, headers }));
    expect(result.ok).toBe(true);
    const [received] = server.received;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/in?x=1');
    expect(received.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(received.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'webhook-id': 'msg_01J0000000000000000000000',
      'webhook-signature': 'v1,abc+/=',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': USER_AGENT,
    });
    expect(received.headers.cookie).toBeUndefined();
    expect(received.headers['transfer-encoding']).toBeUndefined();
    expect(received.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase())).not.toContain('cookie');
  });

  it('never throws, even for a header Node refuses to send', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    const result = await newSender().send(request(server.url(), { headers: { 'X-Bad': 'a\r\nInjected: yes' } }));
    expect(result).toMatchObject({ status: null, ok: false, error: 'ERR_INVALID_CHAR: Invalid character in header content ["X-Bad"]' });
    expect(server.received).toHaveLength(0);
  });

  it('reuses one keep-alive connection for sequential sends', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end('ok'));
    const sender = newSender();
    for (let i = 0; i < 20; i += 1) {
      expect((await sender.send(request(server.url()))).ok).toBe(true);
    }
    expect(server.received).toHaveLength(20);
    expect(server.connections()).toBe(1);
  });

  it('opens no more than maxSocketsPerHost connections for concurrent sends', async () => {
    const server = await startServer((_req, res) => setTimeout(() => res.writeHead(200).end(), 20));
    const sender = newSender({ maxSocketsPerHost: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => sender.send(request(server.url()))));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.connections()).toBe(2);
  });

  describe('stale keep-alive sockets', () => {
    /** [connection, request on that connection] of every request the receiver got in full. */
    const arrivals = (receiver: KeepAliveReceiver) => receiver.arrivals.map((a) => [a.connection, a.onConnection]);

    it('retries once, on a new connection, a request whose reused socket the server closed unanswered: every delivery succeeds first time', async () => {
      // The server "closed" each connection idle for 100 ms or more just as the next request arrived on it.
      const receiver = await startReceiver(dropAfterIdle(100));
      const sender = newSender();
      for (const body of ['d1', 'd2', 'd3', 'd4']) {
        const result = await sender.send(request(receiver.url(), { body }));
        expect(result).toMatchObject({ status: 200, ok: true, error: null, responseBody: 'ok' });
        await sleep(150);
      }
      expect(receiver.answered).toEqual(['d1', 'd2', 'd3', 'd4']);
      // d2 hit the idle connection 1 (dropped unanswered) and went out again on connection 2, which is not pooled;
      // d3 opened connection 3; d4 hit it once idle, and went out again on connection 4.
      expect(arrivals(receiver)).toEqual([[1, 1], [1, 2], [2, 1], [3, 1], [3, 2], [4, 1]]);
    });

    it('delivers each request exactly once to a node:http receiver whose keep-alive timeout races the gap between deliveries', async () => {
      // No Keep-Alive hint (an explicit Connection header suppresses it, like nginx's default), no grace period: the
      // server closes an idle connection at 100 ms sharp, and gaps of 96–105 ms make it meet the next request.
      const bodies: string[] = [];
      const server = http.createServer({ keepAliveTimeout: 100, keepAliveTimeoutBuffer: 0 } as http.ServerOptions, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          bodies.push(Buffer.concat(chunks).toString('utf8'));
          res.writeHead(200, { Connection: 'keep-alive' }).end('ok');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const sender = newSender();
      const sent: string[] = [];
      const failures: string[] = [];
      try {
        for (let i = 0; i < 20; i += 1) {
          const body = `d${i}`;
          sent.push(body);
          const result = await sender.send(request(url, { body }));
          if (!result.ok) failures.push(`${body}: ${result.error}`);
          await sleep(96 + (i % 10));
        }
      } finally {
        server.closeAllConnections();
        server.close();
      }
      expect(failures).toEqual([]);
      expect(bodies).toEqual(sent);
    });

    it('does not retry a request that fails on a new connection', async () => {
      const receiver = await startReceiver(() => 'drop');
      const result = await newSender().send(request(receiver.url()));
      expect(result).toMatchObject({ status: null, ok: false, error: 'ECONNRESET' });
      expect(arrivals(receiver)).toEqual([[1, 1]]);
      expect(receiver.connections).toBe(1);
    });

    it.each([
      ['an incomplete head', 'cut-head', { status: null, error: 'ECONNRESET' }],
      ['part of the body', 'cut-body', { status: 200, error: 'ECONNRESET', responseBody: 'ok' }],
    ] as const)('does not retry a reused socket dropped after %s of the answer arrived', async (_what, reaction, outcome) => {
      const receiver = await startReceiver((arrival) => (arrival.onConnection === 1 ? 'answer' : reaction));
      const sender = newSender();
      expect((await sender.send(request(receiver.url(), { body: 'd1' }))).ok).toBe(true);
      const result = await sender.send(request(receiver.url(), { body: 'd2' }));
      expect(result).toMatchObject({ ...outcome, ok: false });
      expect(arrivals(receiver)).toEqual([[1, 1], [1, 2]]);
      expect(receiver.connections).toBe(1);
    });

    it('closes a pooled socket idle longer than idleSocketTimeoutMs, before the server does', async () => {
      const receiver = await startReceiver(dropAfterIdle(200));
      const sender = newSender({ idleSocketTimeoutMs: 50 });
      expect((await sender.send(request(receiver.url(), { body: 'd1' }))).ok).toBe(true);
      await sleep(250);
      expect((await sender.send(request(receiver.url(), { body: 'd2' }))).ok).toBe(true);
      // A new connection from the start: nothing was dropped, nothing retried.
      expect(arrivals(receiver)).toEqual([[1, 1], [2, 1]]);
    });

    it('does not cut an answer slower than the idle expiry', async () => {
      const server = await startServer((_req, res) => setTimeout(() => res.writeHead(200).end('late'), 300));
      const result = await newSender({ idleSocketTimeoutMs: 50 }).send(request(server.url()));
      expect(result).toMatchObject({ status: 200, ok: true, responseBody: 'late' });
    });

    it("expires a pooled socket 1 s before the server's Keep-Alive: timeout=N hint", async () => {
      // node:http announces `Keep-Alive: timeout=2` and closes at 2 s (+ its 1 s buffer); the sender drops the socket at 1 s.
      const server = await startServer((_req, res) => res.writeHead(200).end(), { keepAliveTimeout: 2000 });
      const sender = newSender();
      expect((await sender.send(request(server.url()))).ok).toBe(true);
      await sleep(1300);
      expect((await sender.send(request(server.url()))).ok).toBe(true);
      expect(server.connections()).toBe(2);
    });
  });
});
