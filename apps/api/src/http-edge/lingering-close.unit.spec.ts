import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

import { closeLingeringlyAfterResponse, lingeringClose } from './lingering-close';

class FakeSocket extends EventEmitter {
  destroyed = false;
  ended = false;
  writableFinished = true;
  readableEnded = false;
  bytesRead = 100;
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  resume(): void {}
}

const LIMITS = { maxBytes: 1000, maxMs: 2000 };

describe('lingering close', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('ends our side at once and destroys the socket when the client ends its own', () => {
    const socket = new FakeSocket();
    lingeringClose(socket as unknown as Socket, LIMITS);
    expect(socket.ended).toBe(true);
    expect(socket.destroyed).toBe(false);
    socket.emit('end');
    expect(socket.destroyed).toBe(true);
  });

  it('waits for our answer to be flushed before destroying', () => {
    const socket = new FakeSocket();
    socket.writableFinished = false;
    lingeringClose(socket as unknown as Socket, LIMITS);
    socket.emit('end');
    expect(socket.destroyed).toBe(false);
    socket.emit('finish');
    expect(socket.destroyed).toBe(true);
  });

  it('gives up after the time limit', () => {
    const socket = new FakeSocket();
    lingeringClose(socket as unknown as Socket, LIMITS);
    jest.advanceTimersByTime(1999);
    expect(socket.destroyed).toBe(false);
    jest.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);
  });

  it('gives up after the byte limit', () => {
    const socket = new FakeSocket();
    lingeringClose(socket as unknown as Socket, LIMITS);
    socket.bytesRead += 1000;
    jest.advanceTimersByTime(100);
    expect(socket.destroyed).toBe(false);
    socket.bytesRead += 1;
    jest.advanceTimersByTime(100);
    expect(socket.destroyed).toBe(true);
  });

  it("replaces the one socket's destroySoon, which Node's HTTP server calls after a Connection: close answer", () => {
    const socket = new FakeSocket() as FakeSocket & { destroySoon?: () => void };
    closeLingeringlyAfterResponse(socket as unknown as Socket, LIMITS);
    socket.destroySoon?.();
    expect(socket.ended).toBe(true);
    expect(socket.destroyed).toBe(false);
    jest.advanceTimersByTime(2000);
    expect(socket.destroyed).toBe(true);
  });
});
