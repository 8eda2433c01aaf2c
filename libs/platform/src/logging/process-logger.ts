// Every process logs JSON lines through pino, built here once: the API (Fastify's request logs and
// Nest's own lines) and the worker (Nest's lines), with the same fields (level, time, pid, hostname,
// msg, context) and the same LOG_LEVEL filter. No colours: the lines are for machines first.
import { type Logger, type LoggerOptions, pino } from 'pino';

import type { AppConfig } from '../config';

export type LogLevel = AppConfig['LOG_LEVEL'];

/** What no log line may carry: a request's credentials. */
const REDACT = ['req.headers.authorization', 'req.headers.cookie'];

/** Paths whose last segment is a credential (the one-click unsubscribe token of buyer emails). */
const SECRET_PATH = /^(\/email\/unsubscribe\/)[^/?#]+/;

/** A request URL as a log line may show it: a credential in the path replaced by `[redacted]`. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer (its fields, which it takes from this logger's), with the URL made loggable. */
function requestValue(req: LoggedRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: loggableUrl(req.url ?? ''),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

function options(level: Exclude<LogLevel, 'silent'>): LoggerOptions {
  return { level, redact: REDACT, serializers: { req: requestValue } };
}

/** The process's logger (stdout) at LOG_LEVEL; `silent`: none at all. */
export function createProcessLogger(level: LogLevel): Logger | null {
  return level === 'silent' ? null : pino(options(level));
}

/**
 * The one line a process prints once it is ready, whatever LOG_LEVEL (what supervisors and
 * scripts wait for, like the API's `listening on`): a JSON line at level info, through `logger`
 * when it prints info lines.
 */
export function announceReady(logger: Logger | null, message: string): void {
  (logger?.isLevelEnabled('info') ? logger : pino(options('info'))).info(message);
}
