// A local webhook receiver for e2e tests: records every request (raw body, headers, arrival time)
// and answers as each path's behaviour says (status, body, Retry-After, or hang).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** Requests left hanging (on any path) that were still open when this one arrived. */
  hangingAtArrival: number;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (the sender's time-out must end it). */
  hang?: boolean;
}

/** Decides the answer to the n-th (1-based) request on a path. */
export type Behaviour = (n: number, request: Received) => Answer;

export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private server!: Server;
  private port = 0;
  private hanging = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const request: Received = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), hangingAtArrival: this.hanging };
        this.received.push(request);
        const n = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, n);
        const behaviour: Behaviour = this.behaviours.get(path) ?? (() => ({ status: 200, body: 'ok' }));
        const answer = behaviour(n, request);
        if (answer.hang) {
          // Open until the sender gives up (its time-out closes the connection).
          this.hanging += 1;
          res.on('close', () => (this.hanging -= 1));
          return;
        }
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  /** Requests left hanging that are still open (their senders have not given up yet). */
  get hangingNow(): number {
    return this.hanging;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `count` requests reached `path` (or throws after `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path}: ${this.at(path).length} of ${count} requests after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.at(path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
