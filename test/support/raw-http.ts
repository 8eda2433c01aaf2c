// Speaks HTTP/1.1 over a raw TCP socket (node:net), for what fetch cannot send: broken framing,
// pipelined requests, a body written no matter what the server answers. Reads until the server
// closes the connection and splits what came back into responses.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
}

export interface RawExchange {
  /** Every response read, interim ones (100 Continue) included, in order. */
  responses: RawResponse[];
  /** The socket error the client saw (EPIPE, ECONNRESET…), if any. */
  error?: string;
  /** Body bytes the client managed to write (see `body`). */
  bodyBytesWritten: number;
}

export interface RawOptions {
  /** Half-close the client's write side once everything is written. */
  endWrite?: boolean;
  /** A body of this many bytes ('a'), written in 64 KiB pieces after `payload`, whatever comes back. */
  body?: number;
  /** Give up (and destroy the socket) after this long. */
  timeoutMs?: number;
}

function hostAndPort(baseUrl: string): { host: string; port: number } {
  const url = new URL(baseUrl);
  return { host: url.hostname, port: Number(url.port) };
}

/** Sends `payload` on a fresh connection and collects every response until the server closes. */
export function rawExchange(baseUrl: string, payload: string | Buffer, options: RawOptions = {}): Promise<RawExchange> {
  const socket = connect({ ...hostAndPort(baseUrl), allowHalfOpen: true });
  const received: Buffer[] = [];
  let error: string | undefined;
  let bodyBytesWritten = 0;
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
  // The server closed its side: we end ours too (a half-open client must), once all is written.
  let serverEnded = false;
  let allWritten = false;
  socket.on('end', () => {
    serverEnded = true;
    if (allWritten) socket.end();
  });
  const finished = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const timer = setTimeout(() => {
    error ??= 'TIMEOUT';
    socket.destroy();
  }, options.timeoutMs ?? 10_000);

  const piece = Buffer.alloc(64 * 1024, 'a');
  const writeBody = (left: number): void => {
    while (left > 0 && !socket.destroyed) {
      const n = Math.min(piece.length, left);
      left -= n;
      const more = socket.write(n === piece.length ? piece : piece.subarray(0, n), (err) => {
        if (!err) bodyBytesWritten += n;
      });
      if (!more) {
        socket.once('drain', () => writeBody(left));
        return;
      }
    }
    if (left > 0 || socket.destroyed) return;
    allWritten = true;
    if (options.endWrite || serverEnded) socket.end();
  };
  socket.write(payload, () => writeBody(options.body ?? 0));

  return finished.then(() => {
    clearTimeout(timer);
    return { responses: parseResponses(Buffer.concat(received).toString('latin1')), error, bodyBytesWritten };
  });
}

/** Splits a byte stream of HTTP/1.1 responses (Content-Length framed, or interim 1xx) apart. */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`an incomplete response head: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!status) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(status[1]) < 200 ? 0 : Number(headers['content-length'] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      // not JSON
    }
    responses.push({ status: Number(status[1]), headers, body, json });
    rest = rest.slice(headEnd + 4 + length);
  }
  return responses;
}
