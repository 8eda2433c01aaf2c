// Every process logs through pino, built here once: the API (Fastify's request logs and Nest's own
// lines) and the worker (Nest's lines), with the same fields (level, time, pid, hostname, msg,
// context) and the same LOG_LEVEL filter. LOG_FORMAT says how they are printed: JSON lines for
// machines, or short lines for people (pretty-log.ts); `auto` picks by whether stdout is a
// terminal. No colours either way.
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';

import type { AppConfig } from '../config';
import { prettyDestination } from './pretty-log';

export type LogLevel = NonNullable<AppConfig['LOG_LEVEL']>;
export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT as applied: `auto` is pretty when standard output is a terminal, json otherwise. */
export function logFormatOf(config: Pick<AppConfig, 'LOG_FORMAT'>, stdoutIsTTY: boolean = process.stdout.isTTY === true): LogFormat {
  return config.LOG_FORMAT === 'auto' ? (stdoutIsTTY ? 'pretty' : 'json') : config.LOG_FORMAT;
}

/** LOG_LEVEL, else the format's default: every info line in JSON, warnings and errors for people. */
export function logLevelOf(config: Pick<AppConfig, 'LOG_LEVEL'>, format: LogFormat): LogLevel {
  return config.LOG_LEVEL ?? (format === 'pretty' ? 'warn' : 'info');
}

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

function destination(format: LogFormat, out?: { write(text: string): unknown }): DestinationStream | undefined {
  if (format === 'pretty') return prettyDestination(out);
  return out ? { write: (line: string) => void out.write(line) } : undefined;
}

/**
 * A process's logger at `level` in `format`, printing on `out` (stdout by default); `silent`: none
 * at all.
 */
export function createProcessLogger(level: LogLevel, format: LogFormat = 'json', out?: { write(text: string): unknown }): Logger | null {
  if (level === 'silent') return null;
  const stream = destination(format, out);
  return stream ? pino(options(level), stream) : pino(options(level));
}

/** The process's logger as its configuration asks (LOG_FORMAT, LOG_LEVEL), and the format it prints in. */
export function processLoggerFor(
  config: Pick<AppConfig, 'LOG_FORMAT' | 'LOG_LEVEL'>,
  stdoutIsTTY: boolean = process.stdout.isTTY === true,
): { logger: Logger | null; format: LogFormat } {
  const format = logFormatOf(config, stdoutIsTTY);
  return { logger: createProcessLogger(logLevelOf(config, format), format), format };
}

/**
 * The one line a process prints once it is ready, whatever LOG_LEVEL (what supervisors and
 * scripts wait for, like the API's `listening on`): a line at level info, through `logger`
 * when it prints info lines, else through one made for it in `format`.
 */
export function announceReady(logger: Logger | null, message: string, format: LogFormat = 'json'): void {
  (logger?.isLevelEnabled('info') ? logger : (createProcessLogger('info', format) as Logger)).info(message);
}
