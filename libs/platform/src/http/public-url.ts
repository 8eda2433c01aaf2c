// The service's public address, for the links it prints or sends (the portal's sign-in links, the
// widget's embed snippet, the unsubscribe links of buyer emails): PUBLIC_BASE_URL when it is set;
// else the address the running server listens on; else http://localhost:PORT.
//
// The server's address is known only to the server (PORT=0 picks a free port; HOST decides the
// host), and the CLI or a worker process is another process: so the server records the URL it
// listens on in DATA_DIR (LISTEN_URL_FILE, with its pid) once it listens, and removes it when it
// stops. A file left by a server that died (kill -9) names a process that is gone, and is ignored.
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';

import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import { APP_CONFIG, type AppConfig } from '../config';

/** DATA_DIR/server-url.json: `{"url": "http://localhost:3000", "pid": 1234}` while a server runs. */
export const LISTEN_URL_FILE = 'server-url.json';

type PublicUrlConfig = Pick<AppConfig, 'PUBLIC_BASE_URL' | 'DATA_DIR' | 'PORT'>;

/** The URL a server bound to `host` and `port` answers on: a wildcard or loopback name reads `localhost`. */
export function listenUrlOf(host: string, port: number): string {
  const name = host === '' || host === '0.0.0.0' || host === '::' || host === 'localhost' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Whether a process with that pid is running (one we may not signal counts: it is there). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL a running server on this DATA_DIR recorded, or null (none recorded, or its process is gone). */
export function recordedListenUrl(dataDir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, LISTEN_URL_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const { url, pid } = JSON.parse(text) as { url?: unknown; pid?: unknown };
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+$/.test(url) || typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
    return alive(pid) ? url : null;
  } catch {
    return null;
  }
}

/** Records this process's listen URL (0600, written whole: a reader never sees half of it). */
export function recordListenUrl(dataDir: string, url: string): void {
  const path = join(dataDir, LISTEN_URL_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ url, pid: process.pid })}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Removes the recorded URL if this process wrote it (another server on the same DATA_DIR may have since). */
export function forgetListenUrl(dataDir: string): void {
  const path = join(dataDir, LISTEN_URL_FILE);
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    if (pid === process.pid) unlinkSync(path);
  } catch {
    // Not there, or not ours to remove.
  }
}

/** The service's public address, without a trailing slash: PUBLIC_BASE_URL, else the running server's, else http://localhost:PORT. */
export function publicBaseUrl(config: PublicUrlConfig): string {
  return config.PUBLIC_BASE_URL ?? recordedListenUrl(config.DATA_DIR) ?? listenUrlOf('localhost', config.PORT || 3000);
}

/**
 * Records the HTTP server's listen URL in DATA_DIR once it listens, and removes it when it closes
 * or the application shuts down. In a process without an HTTP server (the CLI, a worker) it does nothing.
 */
@Injectable()
export class ListenUrlRecorder implements OnApplicationBootstrap, OnApplicationShutdown {
  private recorded = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly host: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.host.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.once !== 'function') return;
    server.once('listening', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return;
      try {
        recordListenUrl(this.config.DATA_DIR, listenUrlOf(this.config.HOST, address.port));
        this.recorded = true;
      } catch {
        // A DATA_DIR this process cannot write to (an external store only): links fall back to PORT.
      }
    });
    server.once('close', () => this.forget());
  }

  onApplicationShutdown(): void {
    this.forget();
  }

  private forget(): void {
    if (!this.recorded) return;
    this.recorded = false;
    forgetListenUrl(this.config.DATA_DIR);
  }
}
