// Configuration comes from the environment, validated once at start by one zod schema. A bad value
// stops the process with a message naming the variable.
import { resolve } from 'node:path';

import { z } from 'zod';

import { decodeSecretKey, SECRET_KEY_FORMAT } from './crypto/secret-box';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

/** A duration such as `500ms`, `30s`, `5m`, `2h` (a bare number is milliseconds). */
const DURATION = /^\s*\d+(\.\d+)?(ms|s|m|h)?\s*$/;
const DURATION_LIST = /^\s*\d+(\.\d+)?(ms|s|m|h)?\s*(,\s*\d+(\.\d+)?(ms|s|m|h)?\s*){0,19}$/;

/** A duration setting (`30s`, `1h`; a bare number is milliseconds) as milliseconds. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const durationMs = (example: string) =>
  z
    .string()
    .regex(DURATION, `a duration with unit ms, s, m or h, e.g. ${example}`)
    .transform((text) => {
      const [, amount, unit] = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h)?\s*$/.exec(text)!;
      return Math.round(Number(amount) * UNIT_MS[unit ?? 'ms']);
    });

/** `https://api.example.com` or `http://localhost:3000/`: a scheme, a host and a port, nothing more. */
function isBareOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return url.username === '' && url.password === '' && url.search === '' && url.hash === '' && /^\/*$/.test(url.pathname) && !/[?#]/.test(text);
  } catch {
    return false;
  }
}

/** A request quota; the ceiling keeps counters far from unsafe integers (and lets benches lift limits). */
export const MAX_RATE_LIMIT = 1_000_000_000;
const rateLimit = positiveInt.max(MAX_RATE_LIMIT);

export const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    EVENT_STORE: z.enum(['sqlite', 'esdb']).default('sqlite'),
    READ_STORE: z.enum(['sqlite', 'mongo']).default('sqlite'),
    ESDB_CONNECTION_STRING: z.string().min(1).optional(),
    MONGO_URL: z.string().min(1).optional(),
    MONGO_DB: z.string().min(1).default('collectibles'),
    SQLITE_SYNCHRONOUS: z.enum(['NORMAL', 'FULL']).default('NORMAL'),
    SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
    SQLITE_CACHE_MB: z.coerce.number().int().min(1).max(65536).default(64),
    // Off by default (issue 20, RSS < 1 GiB at 1,000,000 items): a map's pages count in the process's
    // RSS, and SQLite unmaps the whole map whenever another connection has committed (every
    // projection batch, for read.db's reader), so a map saves no CPU per POST here (bench/results/h1m/).
    SQLITE_MMAP_MB: z.coerce.number().int().min(0).max(1048576).default(0),
    SQLITE_WAL_AUTOCHECKPOINT: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    SQLITE_CHECKPOINT_MS: z.coerce.number().int().min(0).max(60_000).default(200),
    // How long a start waits for the quick checks of the embedded databases (PRAGMA quick_check, on
    // worker threads); a check still running then goes on in the background.
    SQLITE_START_CHECK_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
    SUBSCRIPTION_POLL_MS: positiveInt.default(100),
    RUN_WORKERS: bool.default(true),
    /**
     * Where `npm start`'s workers (projections, process managers, timers, webhook dispatch) run when
     * RUN_WORKERS is on: `inline` all in the API's own process; `process` all in a worker process
     * the API starts and supervises beside it (the second core); `background` splits them — the
     * read-your-writes projections stay in the API (no write waits across processes), what no
     * request waits for (the eventual lane, process managers, timers, webhook dispatch) moves to
     * the worker process. `inline` is the default: the cheapest on a two-core machine, where
     * `background` costs more CPU per POST across the two processes and its API process idles on
     * the log's write lock, which the worker takes too (bench/RESULTS.md).
     */
    WORKER_MODE: z.enum(['inline', 'process', 'background']).default('inline'),
    /** Set by the API for the worker process it starts (not by hand): which duties that process takes. */
    WORKER_ROLE: z.enum(['all', 'background']).optional(),
    // How often the durable timers' scheduler looks for due timers (where the workers run).
    TIMER_POLL_MS: positiveInt.max(60_000).default(250),
    // How long after `delivered` a buyer may open a dispute; then a durable timer completes the trade.
    TRADE_DISPUTE_WINDOW_SECONDS: positiveInt.max(90 * 24 * 3600).default(3 * 24 * 3600),
    // How many automation actions may follow one another (a rule's effect triggering another rule):
    // a run deeper than this is recorded as failed (AUTOMATION_CHAIN_TOO_DEEP) and does nothing.
    AUTOMATION_MAX_CHAIN_DEPTH: positiveInt.max(20).default(3),
    READ_YOUR_WRITES_TIMEOUT_MS: positiveInt.default(5000),
    /**
     * How the API and the worker print their log: `json`, one JSON object per line (level, time,
     * pid, hostname, msg, context…), for log shippers; `pretty`, short lines for people: the
     * start line, then warnings and errors (with LOG_LEVEL=info, a line per request too);
     * `auto`, pretty when standard output is a terminal, json otherwise (a pipe, a file, a
     * container's log).
     */
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
    /** The least severe level logged (`silent`: none). Unset: `info` in json lines, `warn` in pretty ones. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    // Request rate limits (two fixed windows): per workspace, shared by all its keys; and per client
    // IP for public routes and for requests whose API key is missing or invalid. A workspace's own
    // limits (CLI: workspace limits) override the first two.
    RATE_LIMIT_PER_MINUTE: rateLimit.default(100),
    RATE_LIMIT_PER_SECOND: rateLimit.default(20),
    RATE_LIMIT_PUBLIC_PER_MINUTE: rateLimit.default(100),
    RATE_LIMIT_PUBLIC_PER_SECOND: rateLimit.default(20),
    /** The want-list widget's public routes: every request for one seller (suggestions and submissions), from anywhere. */
    RATE_LIMIT_WIDGET_SELLER_PER_MINUTE: rateLimit.default(600),
    RATE_LIMIT_WIDGET_SELLER_PER_SECOND: rateLimit.default(30),
    /**
     * Wanted cards sent from one client IP (any seller), counted per card (line) of each want list:
     * a person sends a list or two, a bot many. A list of more cards than a window holds counts as
     * that window's quota, so the per-second quota is best at least a whole list (25).
     */
    RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: rateLimit.default(50),
    RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND: rateLimit.default(25),
    /** Portal sign-in attempts per minute per IP address (scrypt is slow on purpose). */
    PORTAL_SIGN_IN_PER_MINUTE: rateLimit.default(10),
    /** The longest the service serves a kept copy of a public, cacheable answer (0: never). */
    PUBLIC_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    // Behind a load balancer the socket address is the balancer's: per-IP limits would then share
    // one bucket. `true` trusts X-Forwarded-For from any hop, a number that many hops, otherwise a
    // comma-separated list of proxy addresses/CIDRs (Fastify's trustProxy). Off by default.
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|\d+|[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*)$/, 'true, false, a hop count, or proxy addresses')
      .default('false')
      .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
    // The API promises idempotency keys for at least 24 hours, so a shorter setting is refused.
    IDEMPOTENCY_KEY_TTL_HOURS: z.coerce.number().int().min(24).default(24),
    IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(0).default(10000),
    IDEMPOTENCY_LEASE_MS: positiveInt.default(60000),
    // Webhook delivery. The schedule lists the delay before each attempt, from the previous one
    // (units ms, s, m, h); HTTP and private targets are for local development and tests only.
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .regex(DURATION_LIST, 'a comma-separated list of delays with units ms, s, m or h, e.g. 0,1m,5m,30m,2h')
      .default('0,1m,5m,30m,2h'),
    WEBHOOK_TIMEOUT_MS: positiveInt.max(600_000).default(30_000),
    WEBHOOK_ALLOW_HTTP: bool.default(false),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
    WEBHOOK_CONCURRENCY: positiveInt.max(10_000).default(64),
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: positiveInt.max(1_000).default(8),
    WEBHOOK_DISABLE_AFTER: z.string().regex(DURATION, 'a duration with unit ms, s, m or h, e.g. 24h').default('24h'),
    WEBHOOK_SECRET_OVERLAP: z.string().regex(DURATION, 'a duration with unit ms, s, m or h, e.g. 24h').default('24h'),
    WEBHOOK_POLL_MS: positiveInt.max(60_000).default(1000),
    WEBHOOK_MAX_PER_WORKSPACE: positiveInt.max(10_000).default(50),
    // The key that seals secrets at rest (webhook signing secrets, idempotent answers holding a
    // secret). Embedded, it defaults to DATA_DIR/secrets.key, generated on first start.
    SECRETS_KEY: z
      .string()
      .refine((v) => decodeSecretKey(v) !== undefined, `must be ${SECRET_KEY_FORMAT}`)
      .optional(),
    // Seller trust credentials. The Ed25519 signing key: a 32-byte seed (same formats as
    // SECRETS_KEY); unset, one is generated and kept sealed in the log (rotated with
    // `npm run cli -- trust rotate-key`).
    TRUST_SIGNING_KEY: z
      .string()
      .refine((v) => decodeSecretKey(v) !== undefined, `must be ${SECRET_KEY_FORMAT}`)
      .optional(),
    TRUST_CREDENTIAL_VALIDITY_DAYS: positiveInt.max(3650).default(90),
    /** How long a superseded credential still verifies (embeds and caches catch up meanwhile). */
    TRUST_SUPERSEDED_GRACE_HOURS: z.coerce.number().int().min(0).max(24 * 365).default(168),
    /**
     * The service's public address, the origin people and other sites reach it at: the portal's
     * sign-in links, the widget's embed snippet, emails' links and signed credentials name it.
     * Unset: the address the running server listens on (recorded in DATA_DIR for the CLI), else
     * http://localhost:PORT. Documented in config-docs.ts (docs/configuration.md).
     */
    PUBLIC_BASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL, e.g. https://api.example.com' })
      .refine(isBareOrigin, 'must be an origin only — scheme, host and an optional port (https://api.example.com), with no path, query, fragment or user')
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
    // Buyer emails (issue 34): the widget's buyers are emailed when a card they want is in stock.
    // Where they are sent: an SMTP server (`smtp://user:pass@host:587`, `smtps://host:465`); unset,
    // each email is written as an .eml file under DATA_DIR/outbox (listed in the portal).
    SMTP_URL: z
      .url({ protocol: /^smtps?$/ })
      .optional(),
    /** The address the emails are sent from (the shop's name shows as its display name). */
    SMTP_FROM: z.email().default('no-reply@localhost'),
    /** How long the SMTP client waits for a connection, the greeting and each reply. */
    SMTP_TIMEOUT_MS: positiveInt.max(600_000).default(30_000),
    /** At most one email per buyer in this window; the matches found meanwhile are gathered into the next. */
    BUYER_EMAIL_WINDOW: durationMs('1h').default(3_600_000),
    /** The delay before a failed email is tried again; it doubles each time, up to an hour. */
    BUYER_EMAIL_RETRY: durationMs('1m').default(60_000),
    /** Attempts before a failing email is given up (recorded as failed, shown to the seller). */
    BUYER_EMAIL_MAX_ATTEMPTS: positiveInt.max(100).default(8),
    /** How long a send may run before its claim counts as interrupted (never sent again: it may have left). */
    BUYER_EMAIL_LEASE: durationMs('2m').default(120_000),
  })
  .superRefine((c, ctx) => {
    if (c.EVENT_STORE === 'esdb' && !c.ESDB_CONNECTION_STRING) {
      ctx.addIssue({ code: 'custom', path: ['ESDB_CONNECTION_STRING'], message: 'required when EVENT_STORE=esdb' });
    }
    if (c.EVENT_STORE === 'esdb' && !c.SECRETS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SECRETS_KEY'],
        message: "required when EVENT_STORE=esdb (secrets must not depend on one machine's disk)",
      });
    }
    if (c.READ_STORE === 'mongo' && !c.MONGO_URL) {
      ctx.addIssue({ code: 'custom', path: ['MONGO_URL'], message: 'required when READ_STORE=mongo' });
    }
  })
  .transform((c) => ({ ...c, DATA_DIR: resolve(c.DATA_DIR) }));

export type AppConfig = z.output<typeof configSchema>;

export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * A condition that stops a process at start (a bad setting, a lost or damaged log, a missing key):
 * printed as its message alone, one plain line saying what is wrong and what to do.
 */
export class StartError extends Error {
  override readonly name: string = 'StartError';
}

export class ConfigError extends StartError {
  override readonly name = 'ConfigError';
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings count as unset, as they do in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration — ${problems.join('; ')}`);
}

/** What this process's workers do: the read-your-writes lane, the eventual lane, and the rest in the background. */
export interface WorkerDuties {
  primaryLane: boolean;
  eventualLane: boolean;
  /** Process managers, durable timers, webhook dispatch. */
  background: boolean;
}

/**
 * The configuration of a worker process (`dist/apps/worker/src/main.js`): it runs workers, and
 * started on its own (in production, beside APIs with RUN_WORKERS=false) it takes every duty
 * whatever WORKER_MODE says; the API sets WORKER_ROLE for the one it starts.
 */
export function workerProcessConfig(config: AppConfig): AppConfig {
  return { ...config, RUN_WORKERS: true, WORKER_ROLE: config.WORKER_ROLE ?? 'all' };
}

export function workerDuties(config: Pick<AppConfig, 'RUN_WORKERS' | 'WORKER_MODE' | 'WORKER_ROLE'>): WorkerDuties {
  if (!config.RUN_WORKERS) return { primaryLane: false, eventualLane: false, background: false };
  if (config.WORKER_ROLE === 'background') return { primaryLane: false, eventualLane: true, background: true };
  if (config.WORKER_ROLE === 'all' || config.WORKER_MODE === 'inline') return { primaryLane: true, eventualLane: true, background: true };
  // The API's own process beside a worker process: `background` keeps the read-your-writes lane here.
  return { primaryLane: config.WORKER_MODE === 'background', eventualLane: false, background: false };
}
