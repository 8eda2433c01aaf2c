// A "lingering close" (RFC 9112 §9.6): after an answer that closes the connection while the client
// may still be sending (a body over the limit, a framing error), end our side only, read and
// discard what still comes, and destroy the socket once the client ends its side — or after a
// bound of bytes or time. Destroying at once would leave unread data in the kernel's buffer, which
// turns the close into a TCP reset: the client sees EPIPE / ECONNRESET instead of our answer.
import type { Socket } from 'node:net';

export interface LingerLimits {
  /** Bytes read after our answer before giving up on the client. */
  maxBytes: number;
  /** Time after our answer before giving up on the client. */
  maxMs: number;
}

/** Enough for a client to finish a 20–30 MiB upload it started, not enough to be a cost. */
export const LINGER_LIMITS: LingerLimits = { maxBytes: 32 * 1024 * 1024, maxMs: 5_000 };

const CHECK_BYTES_EVERY_MS = 50;

/** Ends our side now and destroys the socket when the client is done, or at the limits. */
export function lingeringClose(socket: Socket, limits: LingerLimits = LINGER_LIMITS): void {
  if (socket.destroyed) return;
  const readBefore = socket.bytesRead;
  const stop = (): void => {
    clearInterval(counter);
    clearTimeout(deadline);
    // What we wrote is flushed before the socket goes (destroying earlier would drop it).
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const deadline = setTimeout(() => {
    clearInterval(counter);
    socket.destroy();
  }, limits.maxMs).unref();
  const counter = setInterval(() => {
    if (socket.bytesRead - readBefore > limits.maxBytes) {
      clearTimeout(deadline);
      clearInterval(counter);
      socket.destroy();
    }
  }, CHECK_BYTES_EVERY_MS).unref();
  socket.once('close', () => {
    clearTimeout(deadline);
    clearInterval(counter);
  });
  socket.once('end', stop);
  if (socket.readableEnded) stop();
  socket.end();
  socket.resume();
}

interface ClosableSocket extends Socket {
  destroySoon(): void;
}

/**
 * Makes Node's HTTP server close this connection lingeringly: once a response carrying
 * `Connection: close` is finished, the server calls the socket's `destroySoon()` (end, then destroy
 * as soon as the write side is flushed). Only the one socket is touched, and only on the paths
 * that refuse a body, so normal requests pay nothing.
 */
export function closeLingeringlyAfterResponse(socket: Socket, limits: LingerLimits = LINGER_LIMITS): void {
  (socket as ClosableSocket).destroySoon = () => lingeringClose(socket, limits);
}
