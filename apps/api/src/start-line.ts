// What `npm start` prints: once listening, one line with the URL to open (in every LOG_FORMAT: what
// a person reads, and what scripts and supervisors wait for); a port it cannot listen on, one line
// saying what to change.
import { relative, isAbsolute } from 'node:path';

import type { AppConfig } from '@app/platform';

const PRODUCT = 'Collectibles Commerce API';

/** The host part of a URL a browser on this machine can open: a wildcard address is localhost. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** DATA_DIR as typed at the shell it was started from: `./data` below the working folder, else absolute. */
export function shownDataDir(dataDir: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, dataDir);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? dataDir : `./${rel}`;
}

/** `Collectibles Commerce API listening on http://localhost:3000 (data in ./data)` */
export function startLine(config: Pick<AppConfig, 'HOST' | 'DATA_DIR'>, port: number, cwd?: string): string {
  return `${PRODUCT} listening on http://${urlHost(config.HOST)}:${port} (data in ${shownDataDir(config.DATA_DIR, cwd)})`;
}

/** The one line for a listen the system refused, or null for another failure (printed as it is). */
export function listenRefusal(error: unknown, config: Pick<AppConfig, 'PORT' | 'HOST'>): string | null {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${config.PORT} is already in use — is another server running? Set PORT to use another port.`;
    case 'EACCES':
      return `port ${config.PORT} may not be used by this user (ports below 1024 need privileges) — set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
      return `HOST=${config.HOST} is not an address of this machine — set HOST to one of its addresses, or 0.0.0.0 for all.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST=${config.HOST} does not resolve to an address — set HOST to an address of this machine, or 0.0.0.0 for all.`;
    default:
      return null;
  }
}
