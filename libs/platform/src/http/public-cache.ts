// A shared cache inside the service for public answers that say they may be shared: a GET answered
// 200 with `Cache-Control: public, max-age=N` (the trust credential, its badge, the keys, the
// verification page and its assets) is kept — its body and its headers, keyed by URL and the
// request headers its `Vary` names — for min(N, PUBLIC_CACHE_TTL_MS), and served again from memory
// before the request reaches the router: no guard, pipe or handler, no read, no serialization. It is what a CDN in
// front of the service would do, with the same contract the answers already state (a copy at most
// N seconds old), kept to a second by default so a new credential shows within one. The per-IP
// rate limit of public routes still counts every request (same key and quota as the guard), and
// a hit answers `If-None-Match` with 304 itself. Answers that set a cookie, are not 200, or are
// not public are never kept. A hit is answered on the raw request, before Fastify routes it.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { FastifyInstance, FastifyReply } from 'fastify';

import { rateLimitedError, rateLimitHeaders } from '../rate-limit/rate-limit-headers';
import type { RateLimiter, RateLimits } from '../rate-limit/rate-limiter';
import { mapError } from './error-mapping';

/** Headers that belong to one answer, never to the copy. */
const PER_ANSWER = new Set(['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-cache']);
const MAX_AGE = /(?:^|,)\s*max-age=(\d+)/i;

export interface CachedAnswer {
  headers: Record<string, string>;
  /** The same headers as a flat name, value list, with the body's length: written as they are on a hit. */
  flat: string[];
  /** Null when only a 304 was seen: the copy answers `If-None-Match` with its etag, nothing else. */
  body: Buffer | null;
  etag: string | null;
  expiresAt: number;
}

interface UrlEntry {
  /** Request header names the answer varies on (lowercase), from its `Vary`. */
  vary: string[];
  variants: Map<string, CachedAnswer>;
}

export interface PublicCacheOptions {
  /** The longest a copy is served (ms); 0 turns the cache off. */
  ttlMs: number;
  /** URLs kept at most; the oldest is dropped beyond. */
  maxUrls?: number;
  /** Bodies larger than this are not kept. */
  maxBodyBytes?: number;
}

type Headers = Record<string, string | string[] | number | undefined>;

export class PublicResponseCache {
  private readonly urls = new Map<string, UrlEntry>();
  private readonly maxUrls: number;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: PublicCacheOptions) {
    this.maxUrls = options.maxUrls ?? 10_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  /** A fresh copy that can answer this GET (a full one, or a 304 for its etag), or null. */
  lookup(url: string, requestHeaders: Headers, now: number): CachedAnswer | null {
    const entry = this.urls.get(url);
    if (!entry) return null;
    const hit = entry.variants.get(variantKey(entry.vary, requestHeaders));
    if (!hit) return null;
    if (hit.expiresAt <= now) {
      entry.variants.delete(variantKey(entry.vary, requestHeaders));
      if (entry.variants.size === 0) this.urls.delete(url);
      return null;
    }
    if (hit.body === null && (hit.etag === null || requestHeaders['if-none-match'] !== hit.etag)) return null;
    return hit;
  }

  /**
   * Keeps a 200 answer to a GET when its own Cache-Control lets a shared cache keep it — or a 304
   * (its etag and headers, no body) where no full copy is kept, so revalidations are answered too.
   */
  remember(url: string, requestHeaders: Headers, status: number, responseHeaders: Headers, payload: unknown, now: number): void {
    if (!this.enabled || (status !== 200 && status !== 304)) return;
    const cacheControl = String(responseHeaders['cache-control'] ?? '');
    if (!/(?:^|,)\s*public\s*(?:,|$)/i.test(cacheControl) || /no-store|no-cache|private/i.test(cacheControl)) return;
    if (responseHeaders['set-cookie'] !== undefined) return;
    const maxAge = Number(MAX_AGE.exec(cacheControl)?.[1] ?? 0) * 1000;
    const ttl = Math.min(maxAge, this.options.ttlMs);
    if (ttl <= 0) return;
    const body = status === 304 ? null : typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    if (body === undefined || (body !== null && body.length > this.maxBodyBytes)) return;
    if (body === null && responseHeaders.etag === undefined) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(responseHeaders)) {
      if (value === undefined || PER_ANSWER.has(name.toLowerCase())) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    const vary = String(responseHeaders.vary ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h && h !== 'origin');
    if (vary.includes('*')) return;
    let entry = this.urls.get(url);
    if (!entry || entry.vary.join(',') !== vary.join(',')) {
      if (!entry && this.urls.size >= this.maxUrls) this.urls.delete(this.urls.keys().next().value as string);
      entry = { vary, variants: new Map() };
      this.urls.set(url, entry);
    }
    const etag = responseHeaders.etag === undefined ? null : String(responseHeaders.etag);
    const key = variantKey(vary, requestHeaders);
    const kept = entry.variants.get(key);
    if (body === null && kept && kept.body !== null && kept.expiresAt > now && kept.etag === etag) return;
    const flat = Object.entries(headers).flat();
    if (body !== null) flat.push('content-length', String(body.length));
    entry.variants.set(key, { headers, flat, body, etag, expiresAt: now + ttl });
  }

  /**
   * Forgets the copies of a path (with any query string): a context whose public answer changed in
   * this process says so, and the next request is answered afresh — other processes' copies lapse
   * with their TTL.
   */
  forget(path: string): void {
    for (const url of this.urls.keys()) {
      if (url === path || url.startsWith(`${path}?`) || url.startsWith(`${path}/`)) this.urls.delete(url);
    }
  }

  /** Forgets every copy. */
  clear(): void {
    this.urls.clear();
  }
}

/** False when a Cache-Control value cannot let a shared cache keep the answer (remember decides the rest). */
function mayBeShared(cacheControl: ReturnType<FastifyReply['getHeader']>): boolean {
  return cacheControl !== undefined && /public/i.test(String(cacheControl));
}

function variantKey(vary: readonly string[], headers: Headers): string {
  if (vary.length === 0) return '';
  return vary.map((name) => String(headers[name] ?? '')).join('\n');
}

export interface PublicCacheFront {
  limiter: RateLimiter;
  /** The public per-IP quota (the guard's: hits count against the same key). */
  limits: RateLimits;
  /** The client's address as the routes see it (TRUST_PROXY applied). */
  clientIp(request: IncomingMessage): string;
  /** The answer's request id (a sane caller's X-Request-Id, else a new one). */
  requestId(request: IncomingMessage): string;
  /** While true (shutting down), every request goes through the server as usual. */
  bypass?(): boolean;
  now?(): number;
}

/**
 * Puts the cache in front of the server: a GET with a fresh copy is answered from it on the raw
 * request, before Fastify routes it (the copy holds the security and CORS headers its first answer
 * had; this answer adds its own request id and RateLimit fields); everything else goes to the
 * server's own handler. A hook keeps the 200s that say they may be shared.
 */
export function installPublicCache(fastify: FastifyInstance, cache: PublicResponseCache, front: PublicCacheFront): void {
  if (!cache.enabled) return;
  const now = front.now ?? Date.now;
  // Most answers are not public (every authenticated route says `private` or nothing): one header
  // read settles them before the full header set is copied.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' && mayBeShared(reply.getHeader('cache-control'))) {
      cache.remember(request.url, request.headers, reply.statusCode, reply.getHeaders(), payload, now());
    }
    done(null, payload);
  });
  const server = fastify.server;
  const handlers = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  if (handlers.length !== 1) throw new Error(`the public cache expects the server's one request handler, found ${handlers.length}`);
  const [serve] = handlers;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const hit = request.method === 'GET' && !front.bypass?.() ? cache.lookup(request.url ?? '', request.headers, now()) : null;
    if (!hit) {
      serve(request, response);
      return;
    }
    answerFromCache(request, response, hit, front).catch(() => {
      if (!response.headersSent) response.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'The answer could not be sent; retry' }));
    });
  });
}

async function answerFromCache(request: IncomingMessage, response: ServerResponse, hit: CachedAnswer, front: PublicCacheFront): Promise<void> {
  const decision = await front.limiter.consume(`ip:${front.clientIp(request)}`, front.limits);
  if (decision.allowed && (hit.etag === null || request.headers['if-none-match'] !== hit.etag) && hit.body !== null) {
    // The hot path: the copy's headers as one flat list, this answer's own appended.
    const flat = hit.flat.slice();
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) flat.push(name, value);
    flat.push('x-request-id', front.requestId(request), 'x-cache', 'hit');
    response.writeHead(200, flat);
    response.end(hit.body);
    return;
  }
  const own = { ...rateLimitHeaders(decision), 'x-request-id': front.requestId(request), 'x-cache': 'hit' };
  if (!decision.allowed) {
    const mapped = mapError(rateLimitedError(decision, 'this IP address'));
    const body = JSON.stringify(mapped.body);
    const { 'content-type': _type, etag: _etag, 'cache-control': _cache, vary: _vary, ...common } = hit.headers;
    response.writeHead(mapped.status, { ...common, ...mapped.headers, ...own, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    response.end(body);
    return;
  }
  const { 'content-type': _type, ...rest } = hit.headers;
  response.writeHead(304, { ...rest, ...own });
  response.end();
}
