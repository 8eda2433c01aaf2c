// LOG_FORMAT=pretty: the process's pino lines made into short lines for a person at a terminal.
// `HH:MM:SS LEVEL context: message key=value`, an error's stack indented below; a request as one
// line (`GET /api/v1/offers 201 12 ms`, from Fastify's two entries); and none of the framework's
// start-up chatter (Nest's module and route lines, Fastify's own "listening at"), which the
// process's one start line replaces. JSON lines are the format for machines.

/** A pino entry as JSON-parsed (its standard fields; anything else is shown as key=value). */
interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  context?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
  stack?: string;
  [field: string]: unknown;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const INFO = 30;

/** Nest's start-up lines (module wiring, one per route) and what Fastify says when it listens. */
const STARTUP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Fields that the line shows in its own way, or not at all. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'reqId', 'req', 'res', 'responseTime', 'err', 'stack']);

/** Requests still in flight, by request id, for their completion line: a bound on what is kept. */
const MAX_PENDING = 1000;

function clock(time: number | undefined): string {
  const date = new Date(time ?? Date.now());
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

function indented(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * Turns pino's JSON lines into pretty ones. One instance per process: it pairs each request's
 * completion with the method and URL its first entry gave.
 */
export class PrettyLog {
  private readonly pending = new Map<string, string>();

  /** The line(s) to print for one pino line (with its newline), or '' for none. */
  format(line: string): string {
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      return line.endsWith('\n') ? line : `${line}\n`;
    }
    const level = entry.level ?? INFO;
    if (level <= INFO && entry.context !== undefined && STARTUP_CONTEXTS.has(entry.context)) return '';
    if (level <= INFO && entry.context === undefined && entry.msg?.startsWith('Server listening at ')) return '';

    const reqId = typeof entry.reqId === 'string' ? entry.reqId : undefined;
    if (entry.msg === 'incoming request' && reqId && entry.req) {
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
      this.pending.set(reqId, `${entry.req.method ?? '?'} ${entry.req.url ?? '?'}`);
      return '';
    }
    let message = entry.msg ?? '';
    if (entry.msg === 'request completed' && entry.res) {
      const request = (reqId && this.pending.get(reqId)) ?? 'request';
      if (reqId) this.pending.delete(reqId);
      const took = typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)} ms` : '';
      message = `${request} ${entry.res.statusCode ?? '?'}${took}`;
    } else if (entry.context) {
      message = `${entry.context}: ${message}`;
    }
    const fields = Object.entries(entry)
      .filter(([key, v]) => !SHOWN.has(key) && v !== undefined)
      .map(([key, v]) => ` ${key}=${value(v)}`)
      .join('');
    const trace = entry.err?.stack ?? (entry.err?.message ? `${entry.err.type ?? 'Error'}: ${entry.err.message}` : entry.stack);
    const label = (LEVELS[level] ?? String(level)).padEnd(5);
    return `${clock(entry.time)} ${label} ${message}${fields}\n${typeof trace === 'string' && trace !== '' ? `${indented(trace)}\n` : ''}`;
  }
}

/** A pino destination that prints pretty lines on `out` (standard output by default). */
export function prettyDestination(out: { write(text: string): unknown } = process.stdout): { write(line: string): void } {
  const pretty = new PrettyLog();
  return {
    write(line: string): void {
      const text = pretty.format(line);
      if (text !== '') out.write(text);
    },
  };
}
