// The door of the widget's public routes, after the global guard's per-IP limit: a body over the
// widget's size limit is 413 before anything reads it; the seller (the workspace slug) must exist
// (404); a browser page of an origin the seller did not allow is 403 ORIGIN_NOT_ALLOWED, answered
// without CORS headers so the page cannot read it; then the per-seller limit (everyone's requests
// for one seller) and, for submissions, the per-IP submission limit (429 RATE_LIMITED).
import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { WorkspaceDirectory } from '@app/access';
import { ApiError, APP_CONFIG, type AppConfig, RateLimiter, type RateLimits, rateLimitedError, rateLimitHeaders } from '@app/platform';

import { WidgetSettingsReader } from '../settings/widget-settings.queries';
import { originAllowed } from './origin';
import { MAX_WANT_LINES } from './want-list-parse';

/** The largest want list a page may send: far above any real one (25 cards, a 500-character note). */
export const WIDGET_BODY_LIMIT = 32 * 1024;

export const WIDGET_ROUTE_KIND = 'widgetRouteKind';
export type WidgetRouteKind = 'suggest' | 'submit';
/** Marks a public widget route: `submit` routes also count against the per-IP submission limit. */
export const WidgetRoute = (kind: WidgetRouteKind) => SetMetadata(WIDGET_ROUTE_KIND, kind);

/** The seller a widget request is for, once the gate let it through. */
export interface WidgetSeller {
  workspaceId: string;
  slug: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    widgetSeller?: WidgetSeller;
  }
}

const SELLER_CACHE_MS = 1000;

@Injectable()
export class WidgetGate implements CanActivate {
  private readonly sellerLimits: RateLimits;
  private readonly submitLimits: RateLimits;
  private readonly sellers = new Map<string, { expiresAt: number; workspaceId: Promise<string | null> }>();

  constructor(
    private readonly reflector: Reflector,
    private readonly workspaces: WorkspaceDirectory,
    private readonly settings: WidgetSettingsReader,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sellerLimits = { perMinute: config.RATE_LIMIT_WIDGET_SELLER_PER_MINUTE, perSecond: config.RATE_LIMIT_WIDGET_SELLER_PER_SECOND };
    this.submitLimits = { perMinute: config.RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE, perSecond: config.RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.get<WidgetRouteKind | undefined>(WIDGET_ROUTE_KIND, context.getHandler()) ?? 'suggest';
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();

    if (kind === 'submit') {
      const size = bodySize(request);
      if (size > WIDGET_BODY_LIMIT) {
        throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `A want list is at most ${WIDGET_BODY_LIMIT} bytes; this one is ${size}`, {
          limit: WIDGET_BODY_LIMIT,
          size,
        });
      }
    }

    const slug = String((request.params as Record<string, unknown> | undefined)?.slug ?? '');
    const workspaceId = await this.workspaceOf(slug);
    if (!workspaceId) throw unknownSellerError(slug);

    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const { allowedOrigins } = await this.settings.cached(workspaceId);
    if (!originAllowed(allowedOrigins, origin)) {
      // No CORS headers: the refused page cannot read this answer, only that it failed.
      // (The CORS hook also copied them onto the raw response, for answers that bypass the reply.)
      for (const name of ['access-control-allow-origin', 'access-control-expose-headers']) {
        reply.removeHeader(name);
        reply.raw.removeHeader(name);
      }
      throw new ApiError(403, 'ORIGIN_NOT_ALLOWED', `Seller ${slug} does not allow its widget on pages of ${origin ?? 'this origin'}`, {
        origin: origin ?? null,
      });
    }
    if (allowedOrigins.length > 0 && origin !== undefined) {
      void reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    }

    // A want list counts its cards (lines), not one submission: 25 lines cost what 25 one-card lists would.
    const lines = kind === 'submit' ? linesOf(request) : 1;
    await this.limit(reply, `widget-seller:${workspaceId}`, this.sellerLimits, `seller ${slug}'s widget`, lines);
    if (kind === 'submit') await this.limit(reply, `widget-submit-ip:${request.ip}`, this.submitLimits, 'this IP address (wanted cards sent)', lines);
    request.widgetSeller = { workspaceId, slug };
    return true;
  }

  private async limit(reply: FastifyReply, key: string, limits: RateLimits, subject: string, lines = 1): Promise<void> {
    // Never more than a window holds, so a list the limits allow at all always gets through when idle.
    const decision = await this.limiter.consume(key, limits, Math.max(1, Math.min(lines, limits.perSecond, limits.perMinute)));
    if (!decision.allowed) {
      void reply.headers(rateLimitHeaders(decision));
      throw rateLimitedError(decision, subject);
    }
  }

  /** Whether a page of `origin` (the Origin header; undefined when none) may use the seller's widget now. */
  async allows(workspaceId: string, origin: string | undefined): Promise<boolean> {
    const { allowedOrigins } = await this.settings.cached(workspaceId);
    return originAllowed(allowedOrigins, origin);
  }

  /** The workspace of a seller slug, read at most once a second per slug. */
  workspaceOf(slug: string): Promise<string | null> {
    const now = performance.now();
    const hit = this.sellers.get(slug);
    if (hit && hit.expiresAt > now) return hit.workspaceId;
    const workspaceId = this.workspaces.bySlug(slug).then((doc) => doc?.id ?? null);
    if (this.sellers.size >= 10_000) this.sellers.clear();
    this.sellers.set(slug, { expiresAt: now + SELLER_CACHE_MS, workspaceId });
    workspaceId.catch(() => this.sellers.delete(slug));
    return workspaceId;
  }
}

/** The 404 of a slug no seller has: the same on every widget route. */
export function unknownSellerError(slug: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `No seller ${slug}`, { seller: slug });
}

/** The cards a want list asks for (its body is not validated yet: a malformed one counts 1, and is then refused). */
function linesOf(request: FastifyRequest): number {
  const items = (request.body as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? Math.min(Math.max(items.length, 1), MAX_WANT_LINES) : 1;
}

/** The body's size: its Content-Length, or (sent chunked) the size of what was parsed. */
function bodySize(request: FastifyRequest): number {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > 0) return declared;
  return request.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(request.body));
}
