// Builds the Fastify-backed Nest application: body limit, JSON-only bodies, security headers,
// CORS, request ids, logs (LOG_FORMAT), and the error model for errors raised by Fastify itself (body
// parsing, limits). Unknown routes reach the exception filter through Nest's own not-found handler;
// a known path asked with a method it lacks answers 405 with `Allow` before it.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import proxyAddr from '@fastify/proxy-addr';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  allowedMethods,
  type AppConfig,
  installPublicCache,
  mapError,
  methodNotAllowed,
  PinoNestLogger,
  type PlatformOptions,
  processLoggerFor,
  PublicResponseCache,
  RateLimiter,
  urlPath,
} from '@app/platform';

import { AppModule } from './app.module';
import { type ClientError, handleClientError } from './http-edge/client-error';
import { installExpectationHandlers } from './http-edge/expectations';
import { closeLingeringlyAfterResponse } from './http-edge/lingering-close';
import { requestIdFor } from './http-edge/request-id';

/**
 * Routes anyone may call from a browser on any origin (a path, or a folder ending in `/`); every
 * other route sends no CORS headers.
 */
export const PUBLIC_CORS_PATHS = ['/api/v1/health', '/api/v1/health/ready', '/api/v1/openapi.json', '/api/v1/trust/', '/api/embed/'];

function isPublicCorsPath(url: string): boolean {
  const path = url.split('?')[0];
  return PUBLIC_CORS_PATHS.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
}

/**
 * The want-list widget's routes, which pages of any site send to (a JSON POST, so browsers ask
 * first: the preflight is answered here). A seller's allow-list of origins is enforced by the
 * routes themselves (WidgetGate), which refuse other pages without CORS headers.
 */
export const WIDGET_CORS_PREFIX = '/api/v1/public/';

const isWidgetCorsPath = (url: string): boolean => url.split('?')[0].startsWith(WIDGET_CORS_PREFIX);

/** What a page may send there: JSON, and what the TypeScript client adds (never an API key). */
const WIDGET_CORS_HEADERS = ['Content-Type', 'Idempotency-Key', 'X-Client-User-Agent', 'X-Request-Id'];

const BODY_LIMIT = 1024 * 1024;

const HELMET_OPTIONS: HelmetOptions = {
  // JSON answers need no sources at all; the /docs page loads its own script and styles.
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // Development servers speak plain HTTP; TLS is the reverse proxy's job.
      upgradeInsecureRequests: null,
    },
  },
  crossOriginResourcePolicy: { policy: 'same-site' },
};

/**
 * helmet's security headers for our options. They do not vary per request, so they are computed
 * once (on a real ServerResponse) and set in one call per request, instead of helmet rebuilding
 * them on every answer, a cost every GET would pay.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(options)(response.req, response, () => undefined);
  return Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]));
}

const SECURITY_HEADERS = securityHeaders(HELMET_OPTIONS);

/**
 * Nest installs a Fastify error handler that turns Fastify's own errors into bare HttpExceptions,
 * losing their codes (FST_ERR_CTP_INVALID_JSON_BODY…). We install ours instead, which maps them to
 * the API's error model; errors inside route handlers still go through the Nest exception filter.
 */
class ApiFastifyAdapter extends FastifyAdapter {
  override setErrorHandler(): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance();
  }

  /**
   * Nest's not-found handler answers 404 for any request no route takes. Before it: a path that
   * routes do match, asked with another method, is 405 METHOD_NOT_ALLOWED with the path's methods
   * in `Allow` (Fastify's router says which; HEAD goes with GET).
   */
  override setNotFoundHandler(handler: (request: FastifyRequest, reply: FastifyReply) => unknown): ReturnType<FastifyAdapter['setNotFoundHandler']> {
    const router = this.getInstance();
    return super.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const allowed = allowedMethods(router, request.url);
      if (allowed.length === 0 || allowed.includes(request.method)) return handler(request, reply);
      const mapped = mapError(methodNotAllowed(request.method, urlPath(request.url), allowed));
      return reply.header('allow', allowed.join(', ')).status(mapped.status).send(mapped.body);
    });
  }
}

export async function createApp(config: AppConfig, platform: PlatformOptions = {}): Promise<NestFastifyApplication> {
  // The same logger as the worker's (LOG_FORMAT, LOG_LEVEL); Fastify adds its request serializers.
  const { logger } = processLoggerFor(config);
  const adapter = new ApiFastifyAdapter({
    bodyLimit: BODY_LIMIT,
    // `/portal/` is `/portal` (the sign-in links the CLI prints end in a slash), and so for every route.
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: config.TRUST_PROXY,
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // Honour a caller's X-Request-Id when it is sane, else make one.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestIdFor(req.headers),
    // The router's own refusals (a malformed percent-encoding, an over-long path parameter) skip
    // every hook and error handler and would answer Fastify's shape; they get the API's error model.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const mapped = mapError(error);
      void reply.header('x-request-id', request.id).status(mapped.status).send(mapped.body);
    },
    // Requests the HTTP parser refuses (broken framing, headers too large, too slow) never become
    // requests: they are answered on the raw socket, in the API's error shape.
    clientErrorHandler(this: FastifyInstance, error: ClientError, socket: Socket) {
      const outcome = handleClientError(error, socket, SECURITY_HEADERS);
      // Never the error itself: its rawPacket holds the request's bytes, Authorization included.
      if (outcome !== 'repeated') this.log.debug({ code: error.code, outcome }, 'client error');
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, platform), adapter, {
    logger: logger ? undefined : false,
    bufferLogs: logger !== null,
    // Fastify's own JSON parser is the only one: no form bodies (Nest would add one at init).
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  if (logger) app.useLogger(new PinoNestLogger(fastify.log));
  // Expect: 100-continue with a Content-Length over the limit gets its 413 before the body is sent.
  installExpectationHandlers(fastify.server, {
    bodyLimit: BODY_LIMIT,
    headers: SECURITY_HEADERS,
    onRefused: (refusal) => fastify.log.info(refusal, 'request refused before its body was sent'),
  });

  // Bodies are JSON: anything else is 415 UNSUPPORTED_MEDIA_TYPE (Fastify also parses text/plain).
  fastify.removeContentTypeParser('text/plain');
  // An empty body sent as JSON is no body (what many clients send for an action with no fields),
  // so the one body rule decides: `{}` where every field is optional, else 400 VALIDATION_FAILED.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, String(body), done),
  );
  // CSV is the one other body: intake uploads (POST /api/v1/ingestion/sessions/:id/items) read it
  // as text; any other route gets a string its JSON schema refuses (400).
  fastify.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // Form bodies are for one route only: the one-click unsubscribe of buyer emails (RFC 8058: a mail
  // client POSTs `List-Unsubscribe=One-Click` as a form), which reads no body. Anywhere else they
  // stay 415 UNSUPPORTED_MEDIA_TYPE.
  fastify.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string' }, (request, body, done) => {
    if (request.url.startsWith('/email/unsubscribe/')) done(null, body);
    else done(Object.assign(new Error('Unsupported Media Type'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }));
  });
  // CORS stays closed (no Access-Control-* headers) except on public routes. Browsers must never
  // hold API keys, so authenticated routes are for servers only.
  app.enableCors({
    delegator: (request, callback) => {
      const url = request.url ?? '';
      const exposedHeaders = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id'];
      if (isWidgetCorsPath(url)) {
        callback(null, { origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], allowedHeaders: WIDGET_CORS_HEADERS, exposedHeaders, maxAge: 600 });
        return;
      }
      const open = isPublicCorsPath(url);
      callback(null, open ? { origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'], exposedHeaders, maxAge: 600 } : { origin: false });
    },
  });
  // (Hooks take a callback rather than being async: no promise per request.)
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
    done();
  });
  // Public, cacheable answers (trust credentials, badges, keys…) served again from memory before
  // the router; the per-IP limit still counts them, with the client address as Fastify sees it.
  installPublicCache(fastify, app.get(PublicResponseCache), {
    limiter: app.get(RateLimiter),
    limits: { perMinute: config.RATE_LIMIT_PUBLIC_PER_MINUTE, perSecond: config.RATE_LIMIT_PUBLIC_PER_SECOND },
    clientIp: clientIpOf(config.TRUST_PROXY),
    requestId: (request) => requestIdFor(request.headers),
    bypass: () => closing.has(app),
  });
  // Once shutting down, every answer closes its connection, so keep-alive sockets end with their
  // last in-flight response instead of holding the process open until they time out.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing.has(app)) void reply.header('connection', 'close');
    done(null, payload);
  });
  // Errors raised before a route handler runs (malformed JSON, body too large, bad content type).
  fastify.setErrorHandler((error: unknown, request, reply) => {
    const mapped = mapError(error);
    if (mapped.unexpected) request.log.error({ err: error }, 'request failed');
    // A body over the limit is refused while the client may still be sending it: the connection
    // closes lingeringly, so that the client reads this 413 instead of a reset (EPIPE).
    if (mapped.status === 413) closeLingeringlyAfterResponse(request.raw.socket);
    if (mapped.headers) void reply.headers(mapped.headers);
    void reply.status(mapped.status).send(mapped.body);
  });
  return app;
}

const closing = new WeakSet<NestFastifyApplication>();

/** The client's address as Fastify's `request.ip` gives it under TRUST_PROXY (the same rules). */
function clientIpOf(trustProxy: AppConfig['TRUST_PROXY']): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket.remoteAddress ?? '';
  const trust =
    trustProxy === true
      ? () => true
      : typeof trustProxy === 'number'
        ? (_address: string, hop: number) => hop < trustProxy
        : proxyAddr.compile(trustProxy.split(',').map((v) => v.trim()));
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}

/**
 * Graceful shutdown: stop accepting and finish in-flight requests (Fastify's close), then stop the
 * workers at a checkpoint and close the stores (Nest's shutdown hooks).
 */
export async function shutdownGracefully(app: NestFastifyApplication): Promise<void> {
  closing.add(app);
  await app.getHttpAdapter().getInstance().close();
  await app.close();
}
