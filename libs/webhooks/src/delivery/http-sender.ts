// Outbound HTTP for webhook delivery: one POST per call over node:http / node:https keep-alive agents, guarded
// against SSRF (checkWebhookUrl before connecting, guardedLookup on every new connection), never following
// redirects, bounded in time (one timer for the whole exchange) and in memory (at most 64 KiB of response read).
// send() never throws: every failure is described by the SendResult.
//
// Stale keep-alive sockets. A server closes an idle connection on its own timer; a request written on it just as
// it closes fails (ECONNRESET, EPIPE, "socket hang up") without reaching the receiver's handler. Two defences:
//  - pooled sockets idle at most IDLE_SOCKET_TIMEOUT_MS (4 s), under the shortest common server keep-alive timeout
//    (Node's http server 5 s; AWS ALB 60 s, nginx 75 s), and less when the answer carries `Keep-Alive: timeout=N`
//    (Node then expires the socket 1 s before N — only for agents given a `timeout`, which ours are);
//  - a request that fails that way on a REUSED socket before any byte of the answer arrived is sent once more on a
//    new connection, within the same time budget and as the same attempt (Node's documented remedy, see
//    request.reusedSocket). The receiver may have got the first copy (it cannot be told apart from a close that
//    came first): deliveries are idempotent by their webhook-id, which receivers are told to deduplicate on.
//    A failure on a new connection, or once the answer began, is the attempt's outcome: never retried here.
import type * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { isNativeError } from 'node:util/types';
import { addressLookup, lookupFunction, SEND_TIME_DNS } from './dns-resolver';
import { PRIVATE_ADDRESS_ERROR_CODE, checkWebhookUrl, guardedLookup, type TargetPolicy } from './target-guard';

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: TargetPolicy;
}

export interface SendResult {
  /** null when no HTTP answer (network error, timeout before headers, refused target). */
  status: number | null;
  /** Whole milliseconds from the call to the outcome. */
  durationMs: number;
  /** First 4096 bytes of the response body decoded as utf8 ('' when none). */
  responseBody: string;
  /** Why the delivery failed without (or before the end of) an HTTP answer; a non-2xx status alone is not an error. */
  error: string | null;
  /** Parsed Retry-After (delta-seconds or HTTP-date relative to now), for any status; null when absent or invalid. */
  retryAfterMs: number | null;
  /** True for a complete 2xx answer. */
  ok: boolean;
}

export interface WebhookSenderOptions {
  maxSocketsPerHost?: number;
  /** How host names are resolved (default: DNS through c-ares, bounded by SEND_TIME_DNS). */
  resolve?: typeof dns.lookup;
  /** How long a pooled socket may stay idle before the sender closes it (default IDLE_SOCKET_TIMEOUT_MS). */
  idleSocketTimeoutMs?: number;
}

export const USER_AGENT = 'collectibles-webhooks/1';
const KEPT_BODY_BYTES = 4096;
const MAX_READ_BYTES = 64 * 1024;
const DEFAULT_MAX_SOCKETS_PER_HOST = 16;
/** Idle expiry of pooled sockets: below Node's default server keepAliveTimeout (5 s), the shortest common one. */
export const IDLE_SOCKET_TIMEOUT_MS = 4000;
/** How a request fails when the server closed the (reused) socket under it. */
const STALE_SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** Headers the sender owns (or that must never be sent); a caller's value for them is dropped. */
const RESERVED_HEADERS = new Set(['content-length', 'user-agent', 'cookie', 'host', 'connection', 'keep-alive', 'transfer-encoding']);

type Agent = http.Agent | https.Agent;

export class WebhookSender {
  private readonly agents = new Map<string, Agent>();
  private readonly maxSocketsPerHost: number;
  private readonly resolve: typeof dns.lookup;
  private readonly idleSocketTimeoutMs: number;

  constructor(options: WebhookSenderOptions = {}) {
    this.maxSocketsPerHost = options.maxSocketsPerHost ?? DEFAULT_MAX_SOCKETS_PER_HOST;
    this.resolve = options.resolve ?? lookupFunction(addressLookup(SEND_TIME_DNS));
    this.idleSocketTimeoutMs = options.idleSocketTimeoutMs ?? IDLE_SOCKET_TIMEOUT_MS;
  }

  async send(req: SendRequest): Promise<SendResult> {
    const startedAt = performance.now();
    try {
      const check = checkWebhookUrl(req.url, req.policy);
      // IP-literal hosts are judged here: Node never calls `lookup` for them.
      if (!check.ok) return failure(startedAt, refusalError(check.reason, check.message, req.url));
      return await this.exchange(check.url, req, startedAt);
    } catch (err) {
      return failure(startedAt, describeError(err));
    }
  }

  /** Destroys the pooled sockets; the sender must not be used afterwards. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private exchange(url: URL, req: SendRequest, startedAt: number): Promise<SendResult> {
    return new Promise<SendResult>((resolve) => {
      const body = Buffer.from(req.body, 'utf8');
      const response = new ResponseCapture();
      let request: http.ClientRequest;
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (error: string | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(response.result(startedAt, error));
      };

      const post = (agent: Agent, mayRetry: boolean): void => {
        const current = this.transport(url).request(url, { method: 'POST', agent, headers: outgoingHeaders(req.headers, body.length) });
        request = current;
        // Any byte of the answer, even an incomplete status line, rules the retry out. 'data' carries decrypted
        // bytes on TLS (socket.bytesRead would also count a close_notify); the listener goes with the request.
        let answerBegan = false;
        current.on('socket', (socket) => {
          const began = (): void => {
            answerBegan = true;
          };
          socket.on('data', began);
          current.once('close', () => socket.off('data', began));
        });
        current.on('error', (err) => {
          if (mayRetry && !settled && current.reusedSocket && !answerBegan && isStaleSocketError(err)) {
            try {
              post(this.agentFor(url, req.policy, { pooled: false }), false);
            } catch (retryErr) {
              settle(describeError(retryErr));
            }
            return;
          }
          settle(describeError(err));
        });
        current.on('response', (res) => {
          response.begin(res);
          res.on('data', (chunk: Buffer) => {
            if (response.append(chunk)) return;
            settle(null); // answered; we just refuse to read an unbounded body
            res.destroy();
          });
          res.on('end', () => settle(null));
          res.on('error', (err) => settle(describeError(err)));
          res.on('close', () => settle(res.complete ? null : 'response aborted before the body was complete'));
        });
        current.end(body);
      };

      post(this.agentFor(url, req.policy, { pooled: true }), true);
      timer = setTimeout(() => {
        settle(`timeout after ${req.timeoutMs} ms`);
        request.destroy();
      }, req.timeoutMs);
    });
  }

  private transport(url: URL): typeof http | typeof https {
    return url.protocol === 'https:' ? https : http;
  }

  /**
   * One agent per scheme, allowPrivate value (the guarded lookup depends on the policy) and kind: the pooled
   * keep-alive agent, or the unpooled one that always opens a new connection (for the retry after a stale socket).
   */
  private agentFor(url: URL, policy: TargetPolicy, { pooled }: { pooled: boolean }): Agent {
    const key = `${url.protocol}|${policy.allowPrivate ? 'private' : 'public'}|${pooled ? 'pooled' : 'new'}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const options: http.AgentOptions = {
        keepAlive: pooled,
        // Node applies `timeout` to pooled sockets when they become idle (and lowers it to a server's
        // `Keep-Alive: timeout=N` hint minus 1 s). It also sets it on busy sockets, where it only emits an
        // event nobody listens to: the exchange's own timer bounds a request.
        timeout: this.idleSocketTimeoutMs,
        maxSockets: this.maxSocketsPerHost,
        lookup: guardedLookup(policy, this.resolve),
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }
}

/** Collects status, Retry-After and a bounded prefix of the response body. */
class ResponseCapture {
  private status: number | null = null;
  private retryAfterMs: number | null = null;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readBytes = 0;

  begin(res: http.IncomingMessage): void {
    this.status = res.statusCode ?? null;
    this.retryAfterMs = parseRetryAfter(res.headers['retry-after']);
  }

  /** Keeps the first 4096 bytes; returns false once more than 64 KiB has been read. */
  append(chunk: Buffer): boolean {
    this.readBytes += chunk.length;
    if (this.keptBytes < KEPT_BODY_BYTES) {
      const slice = chunk.subarray(0, KEPT_BODY_BYTES - this.keptBytes);
      this.kept.push(slice);
      this.keptBytes += slice.length;
    }
    return this.readBytes <= MAX_READ_BYTES;
  }

  result(startedAt: number, error: string | null): SendResult {
    const status = this.status;
    return {
      status,
      durationMs: elapsedMs(startedAt),
      responseBody: Buffer.concat(this.kept).toString('utf8'),
      error,
      retryAfterMs: this.retryAfterMs,
      ok: error === null && status !== null && status >= 200 && status < 300,
    };
  }
}

function outgoingHeaders(headers: Record<string, string>, contentLength: number): Record<string, string> {
  const kept = Object.entries(headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), 'Content-Length': String(contentLength), 'User-Agent': USER_AGENT };
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP-date (a past date gives 0). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds * 1000) ? seconds * 1000 : null;
  }
  if (!/^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? /i.test(text)) return null; // HTTP-date starts with the day name
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function refusalError(reason: string, message: string, rawUrl: string): string {
  if (reason !== 'private_address') return message;
  return `private address refused (${hostOf(rawUrl)})`;
}

function hostOf(rawUrl: string): string {
  try {
    return new URL(rawUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return rawUrl;
  }
}

/**
 * A short, stable description: the private-address message, else a system error code (ECONNREFUSED, ETIMEDOUT…),
 * else Node's own code with its message (ERR_INVALID_CHAR: …). Errors may come from another realm (jest's vm), so
 * they are recognised with isNativeError rather than instanceof.
 */
function describeError(err: unknown): string {
  if (!isNativeError(err)) return String(err);
  const code = errorCode(err);
  if (code === PRIVATE_ADDRESS_ERROR_CODE) return err.message;
  if (code === undefined) return err.message;
  return code.startsWith('ERR_') ? `${code}: ${err.message}` : code;
}

/** The error's code, or for an AggregateError (happy-eyeballs connect attempts) the code of its first error. */
function errorCode(err: Error): string | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code !== '') return code;
  const inner: unknown = (err as Partial<AggregateError>).errors?.[0];
  return isNativeError(inner) ? errorCode(inner) : undefined;
}

function isStaleSocketError(err: Error): boolean {
  return STALE_SOCKET_ERRORS.has(errorCode(err) ?? '');
}

function failure(startedAt: number, error: string): SendResult {
  return { status: null, durationMs: elapsedMs(startedAt), responseBody: '', error, retryAfterMs: null, ok: false };
}

function elapsedMs(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}
