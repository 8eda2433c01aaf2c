// The web portal: its page and assets (served by the app itself, under a strict Content-Security-
// Policy: no inline script or style, nothing from another origin), and its session routes — sign
// in (a workspace's person, by password or by a one-time link from the CLI), who is signed in,
// sign out, set one's own password. Signed in, the page calls the API's own routes with the session cookie (HttpOnly,
// SameSite=Strict, Secure over https) and the session's CSRF token, so everything it shows comes
// through the same handlers as the API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { ChangePasswordCommand, cookieValue, type PasswordSet, type PortalSession, PortalSessions, SESSION_COOKIE, SignInCommand, SignInRefusedError, SignOutCommand, type StartedSession, WorkspaceDirectory } from '@app/access';
import { ApiError, ApiOperation, APP_CONFIG, type AppConfig, Public, RateLimiter, rateLimitedError, rateLimitHeaders } from '@app/platform';

import {
  passwordBody,
  passwordExample,
  passwordSetResponse,
  portalAssetParams,
  sessionExample,
  sessionResponse,
  type SessionResponse,
  signedOutResponse,
  signInBody,
  signInExample,
} from './portal.schemas';

const TAGS = ['Portal'];

/** The portal's own policy: its script and stylesheet from this origin, the API on this origin, nothing else. */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');


const WEB = join(__dirname, 'web');
const read = (file: string) => readFileSync(join(WEB, file), 'utf8');
const ASSETS: Record<string, { body: string; type: string }> = {};
function asset(file: 'index.html' | 'portal.js' | 'portal.css'): { body: string; type: string } {
  ASSETS[file] ??= { body: read(file), type: file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html' };
  return ASSETS[file];
}

@Controller('portal')
export class PortalController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: PortalSessions,
    private readonly workspaces: WorkspaceDirectory,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    operationId: 'getPortal',
    summary: 'The web portal (HTML)',
    description:
      "API keys, webhooks with their delivery history and replay, the event log, buyer emails, the want-list widget's settings and the account's password, for a workspace's signed-in people. " +
      'The same page at `/portal/` (a sign-in link from the CLI opens `/portal/#link=…`).',
    tags: TAGS,
    responses: { 200: { description: 'The page', schema: z.string(), contentType: 'text/html' } },
  })
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    const { body, type } = asset('index.html');
    void reply.header('Content-Type', `${type}; charset=utf-8`).header('Cache-Control', 'no-store').header('Content-Security-Policy', PORTAL_CSP).header('Referrer-Policy', 'no-referrer');
    return body;
  }

  @Get('assets/:file')
  @Public()
  @ApiOperation({
    operationId: 'getPortalAsset',
    summary: "The portal's script or stylesheet",
    tags: TAGS,
    params: portalAssetParams,
    responses: { 200: { description: 'JavaScript or CSS' } },
  })
  asset(@Param() params: z.output<typeof portalAssetParams>, @Res({ passthrough: true }) reply: FastifyReply): string {
    const { body, type } = asset(params.file);
    void reply.header('Content-Type', `${type}; charset=utf-8`).header('Cache-Control', 'no-cache').header('Content-Security-Policy', PORTAL_CSP);
    return body;
  }

  @Post('api/session')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'portalSignIn',
    summary: 'Sign in to the portal',
    description:
      'With `{workspace, email, password}` or a one-time link\'s `{token}`. Sets the `portal_session` cookie (HttpOnly, SameSite=Strict, Secure over https; 12 hours) and answers the session, with the CSRF token its changes must send. Every refusal is the same `401 SIGN_IN_REFUSED`; `PORTAL_SIGN_IN_PER_MINUTE` attempts (10) a minute per IP address.',
    tags: TAGS,
    body: signInBody,
    bodyExample: signInExample,
    responses: { 200: { description: 'Signed in', schema: sessionResponse, example: sessionExample } },
    errors: ['SIGN_IN_REFUSED'],
  })
  async signIn(@Body() body: z.output<typeof signInBody>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    // On top of the public per-IP limit: each attempt costs a scrypt (PORTAL_SIGN_IN_PER_MINUTE, default 10).
    const perMinute = this.config.PORTAL_SIGN_IN_PER_MINUTE;
    const decision = await this.limiter.consume(`portal-sign-in:${request.ip}`, { perMinute, perSecond: perMinute });
    if (!decision.allowed) {
      void reply.headers(rateLimitHeaders(decision));
      throw rateLimitedError(decision, 'sign-in from this IP address');
    }
    let started: StartedSession;
    try {
      started = await this.commands.execute(new SignInCommand('token' in body ? { kind: 'link', token: body.token } : { kind: 'password', ...body }));
    } catch (error) {
      if (error instanceof SignInRefusedError) throw new ApiError(401, 'SIGN_IN_REFUSED', error.message);
      throw error;
    }
    // The session as the sign-in left the user's document (the guard's read model: the cookie works from now on).
    const session = this.sessions.of(started.user, started.sessionToken);
    if (!session) throw new ApiError(401, 'SIGN_IN_REFUSED', new SignInRefusedError().message);
    void reply.header('Set-Cookie', this.cookie(request, started.sessionToken, Math.round((Date.parse(started.expiresAt) - Date.now()) / 1000)));
    return this.describe(session);
  }

  @Get('api/session')
  @Public()
  @ApiOperation({
    operationId: 'portalSession',
    summary: 'Who is signed in to the portal',
    description: 'The session the `portal_session` cookie opens, with its CSRF token; `401 UNAUTHORIZED` when there is none.',
    tags: TAGS,
    responses: { 200: { description: 'The session', schema: sessionResponse, example: sessionExample } },
  })
  async current(@Headers('cookie') cookie: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    void reply.header('Cache-Control', 'no-store');
    return this.describe(await this.required(cookie));
  }

  @Delete('api/session')
  @Public()
  @ApiOperation({
    operationId: 'portalSignOut',
    summary: 'Sign out of the portal',
    description: 'Ends the session (its cookie stops working at once, in every API process) and clears the cookie. Needs the session\'s `X-CSRF-Token`.',
    tags: TAGS,
    responses: { 200: { description: 'Signed out', schema: signedOutResponse, example: { signedOut: true } } },
    errors: ['CSRF_TOKEN_INVALID'],
  })
  async signOut(
    @Headers('cookie') cookie: string | undefined,
    @Headers('x-csrf-token') csrf: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ signedOut: true }> {
    const token = cookieValue(cookie, SESSION_COOKIE) ?? '';
    const session = await this.required(cookie);
    if (!this.sessions.csrfMatches(token, csrf)) {
      throw new ApiError(403, 'CSRF_TOKEN_INVALID', 'A change made with a portal session needs its CSRF token in the X-CSRF-Token header');
    }
    // Ended in the guard's read model once this returns: the cookie stops working from the answer on.
    await this.commands.execute(new SignOutCommand(session.auth.workspaceId, session.user.id, token));
    void reply.header('Set-Cookie', this.cookie(request, '', 0));
    return { signedOut: true };
  }

  @Put('api/password')
  @Public()
  @ApiOperation({
    operationId: 'portalSetPassword',
    summary: "Set or change the signed-in person's password",
    description:
      'A first password (for a person made without one, signed in by a link), or a new one in place of the current one, which `currentPassword` must give. ' +
      "Replacing a password signs out the person's other sessions; this one goes on. Needs the session's `X-CSRF-Token`; " +
      'counts against the sign-in attempts of the IP address (`PORTAL_SIGN_IN_PER_MINUTE`).',
    tags: TAGS,
    body: passwordBody,
    bodyExample: passwordExample,
    responses: { 200: { description: 'The password is set', schema: passwordSetResponse, example: { passwordSet: true, replaced: true, sessionsEnded: 1 } } },
    errors: ['CSRF_TOKEN_INVALID'],
  })
  async setPassword(
    @Body() body: z.output<typeof passwordBody>,
    @Headers('cookie') cookie: string | undefined,
    @Headers('x-csrf-token') csrf: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof passwordSetResponse>> {
    const token = cookieValue(cookie, SESSION_COOKIE) ?? '';
    const session = await this.required(cookie);
    if (!this.sessions.csrfMatches(token, csrf)) {
      throw new ApiError(403, 'CSRF_TOKEN_INVALID', 'A change made with a portal session needs its CSRF token in the X-CSRF-Token header');
    }
    // A scrypt or two each: the same budget as sign-in attempts (a guess at the current password is one).
    const perMinute = this.config.PORTAL_SIGN_IN_PER_MINUTE;
    const decision = await this.limiter.consume(`portal-sign-in:${request.ip}`, { perMinute, perSecond: perMinute });
    if (!decision.allowed) {
      void reply.headers(rateLimitHeaders(decision));
      throw rateLimitedError(decision, 'password changes from this IP address');
    }
    const set: PasswordSet = await this.commands.execute(
      new ChangePasswordCommand(session.auth.workspaceId, session.user.id, body.currentPassword ?? null, body.newPassword, token),
    );
    return { passwordSet: true, replaced: set.replaced, sessionsEnded: set.sessionsEnded };
  }

  private async required(cookie: string | undefined): Promise<PortalSession> {
    const token = cookieValue(cookie, SESSION_COOKIE);
    const session = token ? await this.sessions.open(token) : null;
    if (!session) throw new ApiError(401, 'UNAUTHORIZED', 'Not signed in to the portal (or the session has ended)');
    return session;
  }

  private async describe(session: PortalSession): Promise<SessionResponse> {
    const workspace = await this.workspaces.byId(session.auth.workspaceId);
    return {
      user: { id: session.user.id, email: this.sessions.email(session.user), role: session.user.role, hasPassword: session.user.hasPassword },
      workspace: { id: session.auth.workspaceId, slug: workspace?.slug ?? '', name: workspace?.name ?? '' },
      expiresAt: session.expiresAt,
      csrfToken: session.csrfToken,
    };
  }

  /** The session cookie: HttpOnly, SameSite=Strict, the whole site (the portal calls /api/v1), Secure over https. */
  private cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
    const secure = request.protocol === 'https' || this.config.PUBLIC_BASE_URL?.startsWith('https:') === true;
    return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${Math.max(0, maxAgeSeconds)}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  }
}
