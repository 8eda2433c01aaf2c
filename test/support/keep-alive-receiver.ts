// A raw HTTP/1.1 receiver on node:net for keep-alive races. node:http closes an idle socket on its own timer, so
// a test cannot make the close meet the client's next write; this receiver decides per request, as the request's
// bytes arrive, whether to answer `200 ok` (keeping the connection), drop the connection unanswered (what the
// client sees when the server closed an idle socket just as it wrote), or start an answer and drop it part way.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** answer: 200 ok, kept alive; drop: close unanswered; cut-head / cut-body: drop after part of the head / of the body. */
export type Reaction = 'answer' | 'drop' | 'cut-head' | 'cut-body';

const PARTIAL: Record<'cut-head' | 'cut-body', string> = {
  'cut-head': 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n',
  'cut-body': 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nok',
};

export interface Arrival {
  /** 1-based number of the connection the request came on. */
  connection: number;
  /** 1-based number of the request on its connection. */
  onConnection: number;
  /** Milliseconds since the previous answer on this connection (0 for its first request). */
  idleMs: number;
  body: string;
}

/** Drops a request arriving on a connection idle for `idleMs` or more: a server with that keep-alive timeout, losing the race. */
export const dropAfterIdle =
  (idleMs: number) =>
  (arrival: Arrival): Reaction =>
    arrival.onConnection > 1 && arrival.idleMs >= idleMs ? 'drop' : 'answer';

export class KeepAliveReceiver {
  /** Every request received in full, whatever the reaction. */
  readonly arrivals: Arrival[] = [];
  /** Bodies of the requests answered 200 (each a delivery that reached the receiver and was acknowledged). */
  readonly answered: string[] = [];
  connections = 0;
  private server!: Server;
  private port = 0;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly react: (arrival: Arrival) => Reaction) {}

  async start(): Promise<this> {
    this.server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    const connection = this.connections;
    let onConnection = 0;
    let lastAnswerAt = 0;
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const request = takeRequest(pending);
        if (!request) return;
        pending = request.rest;
        onConnection += 1;
        const arrival = { connection, onConnection, idleMs: onConnection === 1 ? 0 : Date.now() - lastAnswerAt, body: request.body };
        this.arrivals.push(arrival);
        const reaction = this.react(arrival);
        if (reaction === 'drop') return void socket.destroy();
        if (reaction !== 'answer') return void socket.write(PARTIAL[reaction], () => socket.destroy());
        this.answered.push(request.body);
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        lastAnswerAt = Date.now();
      }
    });
  }
}

/** One complete request (headers and Content-Length body) from the front of `buffer`, or null if incomplete. */
function takeRequest(buffer: Buffer): { body: string; rest: Buffer } | null {
  const end = buffer.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const head = buffer.subarray(0, end).toString('latin1');
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
  const bodyStart = end + 4;
  if (buffer.length < bodyStart + length) return null;
  return { body: buffer.subarray(bodyStart, bodyStart + length).toString('utf8'), rest: buffer.subarray(bodyStart + length) };
}
