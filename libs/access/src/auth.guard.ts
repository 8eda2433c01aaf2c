// The bearer-key guard on every route but the public ones: 401 UNAUTHORIZED for a missing or
// invalid key, 403 INSUFFICIENT_SCOPE (naming the scope) for a valid key lacking it. It also
// enforces the rate limits, 429 RATE_LIMITED: per workspace once the key is known (all its keys
// share the quota), and per client IP for public routes and for requests without a valid key (so
// guessing keys is throttled too). Every response of a limited route carries the IETF RateLimit
// fields.
// The web portal's pages call the same routes signed in with a session cookie instead of a key
// (only when no Authorization header is sent): the session acts as its user, the workspace's
// owner, and every change it makes must carry the session's CSRF token in `X-CSRF-Token`
// (403 CSRF_TOKEN_INVALID otherwise) — the cookie is SameSite=Strict as well.
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

import {
  APP_CONFIG,
  ApiError,
  type AppConfig,
  missingScope,
  PUBLIC_ROUTE,
  RateLimiter,
  type RateLimits,
  rateLimitedError,
  rateLimitHeaders,
  REQUIRED_SCOPES,
  type Scope,
} from '@app/platform';

import { ApiKeyAuthenticator } from './api-key/api-key.authenticator';
import { cookieValue, PortalSessions, SESSION_COOKIE } from './user/portal-sessions';
import { WorkspaceRateLimits } from './workspace/workspace-rate-limits';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly publicLimits: RateLimits;

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: RateLimiter,
    private readonly workspaceLimits: WorkspaceRateLimits,
    private readonly sessions: PortalSessions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.publicLimits = { perMinute: config.RATE_LIMIT_PUBLIC_PER_MINUTE, perSecond: config.RATE_LIMIT_PUBLIC_PER_SECOND };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) {
      await this.limit(reply, `ip:${request.ip}`, this.publicLimits, 'this IP address');
      return true;
    }

    const header = request.headers.authorization;
    const sessionToken = header ? undefined : cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (!header && !sessionToken) {
      await this.limit(reply, `ip:${request.ip}`, this.publicLimits, 'this IP address');
      throw new ApiError(401, 'UNAUTHORIZED', 'Missing API key: send the header "Authorization: Bearer <API key>"');
    }
    let auth;
    if (sessionToken) {
      auth = (await this.sessions.open(sessionToken))?.auth ?? null;
      if (!auth) {
        await this.limit(reply, `ip:${request.ip}`, this.publicLimits, 'this IP address');
        throw new ApiError(401, 'UNAUTHORIZED', 'The portal session has ended or expired: sign in again');
      }
    } else {
      const secret = BEARER.exec(header ?? '')?.[1];
      auth = secret ? await this.authenticator.authenticate(secret) : null;
      if (!auth) {
        await this.limit(reply, `ip:${request.ip}`, this.publicLimits, 'this IP address');
        throw new ApiError(401, 'UNAUTHORIZED', 'Invalid API key');
      }
    }
    // Before the scope check: every request a workspace's keys make counts, refused ones too.
    const limits = await this.workspaceLimits.forWorkspace(auth.workspaceId);
    await this.limit(reply, `ws:${auth.workspaceId}`, limits, 'this workspace');

    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
    const missing = missingScope(auth.scopes, required);
    if (missing) {
      throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This API key lacks the required scope: ${missing}`, {
        requiredScope: missing,
        ...(required.length > 1 ? { requiredScopes: required } : {}),
      });
    }
    if (sessionToken && !SAFE_METHODS.has(request.method)) {
      const presented = request.headers['x-csrf-token'];
      if (!this.sessions.csrfMatches(sessionToken, typeof presented === 'string' ? presented : undefined)) {
        throw new ApiError(403, 'CSRF_TOKEN_INVALID', 'A change made with a portal session needs its CSRF token in the X-CSRF-Token header');
      }
    }
    request.auth = auth;
    return true;
  }

  /** Counts the request against `key`'s quotas, sets the RateLimit fields, and refuses it when over. */
  private async limit(reply: FastifyReply, key: string, limits: RateLimits, subject: string): Promise<void> {
    const decision = await this.limiter.consume(key, limits);
    void reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision, subject);
  }
}
