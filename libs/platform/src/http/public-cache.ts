// A shared cache inside the service for public answers that say they may be shared: a GET answered
// 200 with `Cache-Control: public, max-age=N` (the trust credential, its badge, the keys, the
// verification page and its assets) is kept — its body and its headers, keyed by URL and the
// request headers its `Vary` names — for min(N, PUBLIC_CACHE_TTL_MS), and served again from memory
// before the route runs: no guard, pipe or handler, no read, no serialization. It is what a CDN in
// front of the service would do, with the same contract the answers already state (a copy at most
// N seconds old), kept to a second by default so a new credential shows within one. The per-IP
// rate limit of public routes still counts every request (same key and quota as the guard), and
// a hit answers `If-None-Match` with 304 itself. Answers that set a cookie, are not 200, or are
// not public are never kept.
import type { FastifyInstance } from 'fastify';

import { rateLimitedError, rateLimitHeaders } from '../rate-limit/rate-limit-headers';
import type { RateLimiter, RateLimits } from '../rate-limit/rate-limiter';
import { mapError } from './error-mapping';

/** Headers that belong to one answer, never to the copy. */
const PER_ANSWER = new Set(['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-cache']);
const MAX_AGE = /(?:^|,)\s*max-age=(\d+)/i;

export interface CachedAnswer {
  headers: Record<string, string>;
  body: Buffer;
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

  /** A fresh copy for this GET, or null. */
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
    return hit;
  }

  /** Keeps a 200 answer to a GET when its own Cache-Control lets a shared cache keep it. */
  remember(url: string, requestHeaders: Headers, status: number, responseHeaders: Headers, payload: unknown, now: number): void {
    if (!this.enabled || status !== 200) return;
    const cacheControl = String(responseHeaders['cache-control'] ?? '');
    if (!/(?:^|,)\s*public\s*(?:,|$)/i.test(cacheControl) || /no-store|no-cache|private/i.test(cacheControl)) return;
    if (responseHeaders['set-cookie'] !== undefined) return;
    const maxAge = Number(MAX_AGE.exec(cacheControl)?.[1] ?? 0) * 1000;
    const ttl = Math.min(maxAge, this.options.ttlMs);
    if (ttl <= 0) return;
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (!body || body.length > this.maxBodyBytes) return;
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
    entry.variants.set(variantKey(vary, requestHeaders), { headers, body, etag, expiresAt: now + ttl });
  }

  /** Forgets every copy (e.g. after a change an operator wants seen at once). */
  clear(): void {
    this.urls.clear();
  }
}

function variantKey(vary: readonly string[], headers: Headers): string {
  if (vary.length === 0) return '';
  return vary.map((name) => String(headers[name] ?? '')).join('\n');
}

/** The two hooks that put the cache in front of the routes, with the public per-IP rate limit on hits. */
export function installPublicCache(
  fastify: FastifyInstance,
  cache: PublicResponseCache,
  limiter: RateLimiter,
  limits: RateLimits,
  clock: () => number = Date.now,
): void {
  if (!cache.enabled) return;
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const hit = cache.lookup(request.url, request.headers, clock());
    if (!hit) return;
    const decision = await limiter.consume(`ip:${request.ip}`, limits);
    void reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      const mapped = mapError(rateLimitedError(decision, 'this IP address'));
      return reply.status(mapped.status).send(mapped.body);
    }
    void reply.headers(hit.headers).header('x-cache', 'hit');
    if (hit.etag !== null && request.headers['if-none-match'] === hit.etag) return reply.status(304).send();
    return reply.status(200).send(hit.body);
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' && reply.getHeader('x-cache') !== 'hit') {
      cache.remember(request.url, request.headers, reply.statusCode, reply.getHeaders(), payload, clock());
    }
    return payload;
  });
}
