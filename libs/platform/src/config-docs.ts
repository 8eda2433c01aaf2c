// What each setting of the configuration schema (config.ts) means, and the table of them that
// docs/configuration.md shows (written there by scripts/generate-docs.mjs, `npm run docs`; a test
// fails when the committed table differs). The variables, their order and their defaults come from
// the schema itself; a setting's zod description (`.describe()`), when it has one, is its meaning,
// else its entry here. A setting with neither fails config-docs.unit.spec.ts, naming it.
import type { z } from 'zod';

import { configSchema } from './config';

export type ConfigKey = keyof z.input<typeof configSchema>;

export interface SettingDoc {
  /** Markdown: what the setting does, its values, what to watch. */
  meaning: string;
  /** Markdown for the Default column, where the schema's default (a parsed value) would read worse. */
  default?: string;
  /** Set by the service itself, never by hand: left out of the table. */
  internal?: true;
}

export const CONFIG_DOCS: { readonly [K in ConfigKey]?: SettingDoc } = {
  PORT: { meaning: 'HTTP port (`0` picks a free one)' },
  HOST: { meaning: 'interface to listen on' },
  DATA_DIR: {
    meaning:
      'where the embedded stores keep `events.db`, `read.db` and `eventual.db` (the eventual lane\'s read models — tradegraph — and the ' +
      "process managers' checkpoints; with their `-wal`/`-shm`) and, without `SECRETS_KEY`, `secrets.key`. Checked at start: created 0700 " +
      'if missing; a directory the service cannot create files in stops the API, the worker and the CLI with one line (`DATA_DIR=… is not ' +
      "usable: …`). Everything in it is private to the service's user (directory 0700, files 0600); looser modes found at start are " +
      'tightened and reported once. Back up `events.db` and the secrets key (see [The log is guarded](operations.md#the-log-is-guarded)). ' +
      '**A backup of `DATA_DIR` holds `secrets.key`**, the key that decrypts the webhook secrets and sealed answers in the same backup, ' +
      'unless `SECRETS_KEY` comes from the environment: protect such backups like the key itself, or set `SECRETS_KEY` and keep the key ' +
      'out of the backed-up directory',
  },
  EVENT_STORE: { meaning: '`sqlite` (embedded) or `esdb` (EventStoreDB / KurrentDB)' },
  READ_STORE: { meaning: '`sqlite` (embedded) or `mongo`' },
  ESDB_CONNECTION_STRING: { meaning: 'e.g. `esdb://localhost:2113?tls=false`; required with `EVENT_STORE=esdb`' },
  MONGO_URL: {
    meaning: 'e.g. `mongodb://localhost:27017/?replicaSet=rs0` (a replica set: transactions need one); required with `READ_STORE=mongo`',
  },
  MONGO_DB: { meaning: 'MongoDB database name' },
  SQLITE_SYNCHRONOUS: {
    meaning: '`NORMAL`: WAL commits survive a crash of the process; `FULL`: they also survive power loss, at the cost of an fsync per commit',
  },
  SQLITE_BUSY_TIMEOUT_MS: { meaning: "how long a writer waits for another process's lock (the CLI and the server share the files)" },
  SQLITE_CACHE_MB: {
    meaning: 'SQLite page cache per connection (the default 2 MiB turns every write into reads once a read model has millions of documents)',
  },
  SQLITE_MMAP_MB: {
    meaning:
      "memory-mapped reads of the SQLite files, MiB per connection (0: off). Mapped pages count in the process's RSS (up to this much " +
      'per file and connection), and measured at 1,000,000 items a map saved no CPU per POST (bench/results/h1m/)',
  },
  SQLITE_WAL_AUTOCHECKPOINT: { meaning: 'WAL pages before SQLite checkpoints on its own (×10 as a safety net while `SQLITE_CHECKPOINT_MS` is on)' },
  SQLITE_CHECKPOINT_MS: {
    meaning: "WAL checkpoints run on a worker thread this often, so no request waits for one (0: SQLite checkpoints on the committing request's thread)",
  },
  SQLITE_START_CHECK_MS: {
    meaning:
      'how long a start waits for the quick check of each embedded database (`PRAGMA quick_check`; a file over 4 MiB on a worker thread of its own); a check still ' +
      'running then goes on in the background, and damage it finds is handled as damage met at run time',
  },
  SUBSCRIPTION_POLL_MS: { meaning: 'how often an idle embedded subscription looks for events appended by another process' },
  RUN_WORKERS: { meaning: 'run the projections inside the API process; `false` when separate workers run them' },
  WORKER_MODE: {
    meaning:
      "with `RUN_WORKERS=true`: `inline` runs the workers (projections, process managers, timers, webhook dispatch) in the API's process; " +
      '`process` runs them in a worker process the API starts, supervises (restarted when it exits) and stops with itself, linked over ' +
      'IPC so read-your-writes stays exact; `background` keeps the read-your-writes lane in the API and moves the rest (the eventual lane, ' +
      "process managers, timers, webhook dispatch) to that worker process, which runs 10 nice steps below the API (no request waits for its work, so the API's requests get the CPU " +
      'first — after a restart too, while the worker boots and catches up). `process` is slower than `inline`, and so is `background` on a ' +
      'two-core machine: measured in three more pairs (bench/RESULTS.md, run 20x), `inline` served more POSTs a second with less CPU per ' +
      'POST, so `inline` is the default. A worker process started on its own (`node dist/apps/worker/src/main.js`, as in docker-compose.yml ' +
      'beside APIs with `RUN_WORKERS=false`) takes every duty whatever `WORKER_MODE` says',
  },
  WORKER_ROLE: { meaning: 'set by the API for the worker process it starts: which duties that process takes', internal: true },
  TIMER_POLL_MS: {
    meaning: 'how often the worker looks for due durable timers (offer and hold expiry, trade auto-completion, reservation checks)',
  },
  TRADE_DISPUTE_WINDOW_SECONDS: {
    meaning: 'how long after `delivered` a dispute may be opened; then a durable timer completes the trade',
    default: '`259200` (3 days)',
  },
  AUTOMATION_MAX_CHAIN_DEPTH: {
    meaning:
      "how many automation actions may follow one another (a rule's effect triggering another rule): a run deeper than this is recorded " +
      'as failed (`AUTOMATION_CHAIN_TOO_DEEP`) and does nothing',
  },
  READ_YOUR_WRITES_TIMEOUT_MS: {
    meaning:
      "the longest a route waits for a read model that follows the log on its own (tradegraph, an intake session's rows, a lot's " +
      'reserves, a match recorded an instant ago, the trust record after a revocation) before answering from what it has',
  },
  LOG_FORMAT: {
    meaning:
      '`json`: one JSON object per line (level, time, pid, msg, context…), for log shippers; `pretty`: short lines for people — the ' +
      'start line, then warnings and errors (with `LOG_LEVEL=info`, a line per request); `auto`: pretty when standard output is a ' +
      "terminal, json otherwise (a pipe, a file, a container's log)",
  },
  LOG_LEVEL: {
    meaning:
      'the least severe level logged: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; `Authorization` and cookies are redacted',
    default: '`info` in json lines, `warn` in pretty ones',
  },
  RATE_LIMIT_PER_MINUTE: { meaning: "requests per minute per workspace (a workspace's own limits override it)" },
  RATE_LIMIT_PER_SECOND: { meaning: 'burst: requests per second per workspace' },
  RATE_LIMIT_PUBLIC_PER_MINUTE: { meaning: 'per client IP, on public routes and for requests without a valid key' },
  RATE_LIMIT_PUBLIC_PER_SECOND: { meaning: 'the same, per second' },
  RATE_LIMIT_WIDGET_SELLER_PER_MINUTE: { meaning: 'all widget requests for one seller, per minute' },
  RATE_LIMIT_WIDGET_SELLER_PER_SECOND: { meaning: 'all widget requests for one seller, per second' },
  RATE_LIMIT_WIDGET_SUBMIT_PER_MINUTE: {
    meaning:
      "wanted cards (lines of want lists) sent from one client IP, per minute; a list of more cards than a window holds counts as that window's quota",
  },
  RATE_LIMIT_WIDGET_SUBMIT_PER_SECOND: { meaning: 'the same, per second (best at least a whole list: 25)' },
  PORTAL_SIGN_IN_PER_MINUTE: { meaning: 'portal sign-in attempts per minute per IP address (each costs a scrypt)' },
  PUBLIC_CACHE_TTL_MS: { meaning: 'the longest a kept copy of a public, cacheable answer is served (`0`: no copies)' },
  TRUST_PROXY: {
    meaning:
      "behind a load balancer: `true` (trust `X-Forwarded-For` from any hop), a hop count, or proxy addresses/CIDRs, so per-IP limits see the client's address; off, the header is ignored",
  },
  IDEMPOTENCY_KEY_TTL_HOURS: { meaning: 'how long an `Idempotency-Key` and its answer are kept after first use (at least 24)' },
  IDEMPOTENCY_WAIT_MS: {
    meaning: "how long a retry whose key is still in flight waits for the original's answer before `409 IDEMPOTENCY_KEY_IN_USE`",
  },
  IDEMPOTENCY_LEASE_MS: { meaning: 'after this, a request still marked in flight counts as crashed and a retry may run' },
  WEBHOOK_RETRY_SCHEDULE: {
    meaning:
      'the delay before each delivery attempt, from the previous one (units `ms`, `s`, `m`, `h`); the number of entries is the number of attempts',
  },
  WEBHOOK_TIMEOUT_MS: { meaning: 'an attempt with no complete answer by then has failed' },
  WEBHOOK_ALLOW_HTTP: { meaning: '**local development and tests only**: allow `http://` urls' },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: { meaning: '**local development and tests only**: allow private or loopback targets' },
  WEBHOOK_CONCURRENCY: { meaning: 'delivery requests in flight in all' },
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: { meaning: 'delivery requests in flight per webhook' },
  WEBHOOK_DISABLE_AFTER: { meaning: 'a webhook whose every attempt failed for this long is disabled' },
  WEBHOOK_SECRET_OVERLAP: { meaning: 'how long a rotated-out secret keeps signing' },
  WEBHOOK_POLL_MS: { meaning: 'how often the durable schedule is read for due attempts (after a restart; live ones run on timers)' },
  WEBHOOK_MAX_PER_WORKSPACE: { meaning: 'webhooks per workspace (`409 LIMIT_EXCEEDED` beyond)' },
  SECRETS_KEY: {
    default: 'embedded: generated into `DATA_DIR/secrets.key`',
    meaning:
      'the key that encrypts secrets at rest (AES-256-GCM): webhook signing secrets, and stored `Idempotency-Key` answers that hold a ' +
      'secret (a new API key). 32 bytes as 64 hex characters or base64/base64url (`openssl rand -hex 32`). Embedded (`EVENT_STORE=sqlite`) ' +
      'and unset, a random key is written to `DATA_DIR/secrets.key` (mode 0600) on first start and reused; required with ' +
      '`EVENT_STORE=esdb`. Keep it with your backups: losing or changing it would make stored webhook secrets unreadable, so a start with ' +
      'the key missing or another one where sealed data exists stops with one line saying so (its id is recorded in `events.db`; the ' +
      'sealed values name it too)',
  },
  TRUST_SIGNING_KEY: {
    default: 'generated, sealed in the log',
    meaning:
      'the Ed25519 seed (32 bytes, hex or base64url) that signs trust credentials; unset, a key is generated on first need and kept ' +
      'sealed with `SECRETS_KEY` in the log (`npm run cli -- trust rotate-key` replaces it). Changing it retires the previous key, which stays listed',
  },
  TRUST_CREDENTIAL_VALIDITY_DAYS: { meaning: "a credential's validity; renewed at four fifths of it" },
  TRUST_SUPERSEDED_GRACE_HOURS: { meaning: 'how long a superseded credential still verifies' },
  PUBLIC_BASE_URL: {
    default: "the running server's own URL, else `http://localhost:$PORT`",
    meaning:
      "the service's public address (an absolute http(s) origin: `https://api.example.com`, no path, query or user — anything else stops " +
      'the start naming it), named in signed credentials (their status list), the QR code, the portal\'s sign-in links, the widget\'s ' +
      "snippet and the links of buyer emails; `https` also makes the portal's cookie `Secure`. Unset, the CLI's sign-in links name the " +
      'URL the running server listens on (it records it in `DATA_DIR/server-url.json` while it runs), else `http://localhost:$PORT`',
  },
  SMTP_URL: {
    default: '— (the outbox)',
    meaning:
      'where buyer emails are sent: `smtp://user:pass@host:587`, `smtps://host:465`. Unset: written as `.eml` files under ' +
      '`DATA_DIR/outbox` and listed in the portal ([notifications.md](notifications.md))',
  },
  SMTP_FROM: { meaning: "the From address of buyer emails (the shop's name is its display name)" },
  SMTP_TIMEOUT_MS: { meaning: "the SMTP client's connection, greeting and reply timeout" },
  BUYER_EMAIL_WINDOW: {
    default: '`1h`',
    meaning: 'at most one email per buyer in this window; matches found meanwhile are gathered into the next',
  },
  BUYER_EMAIL_RETRY: { default: '`1m`', meaning: 'the first retry delay of a failed email (doubling, at most an hour)' },
  BUYER_EMAIL_MAX_ATTEMPTS: { meaning: 'the attempts before a failed email is given up' },
  BUYER_EMAIL_LEASE: {
    default: '`2m`',
    meaning: 'a send without an outcome after this counts as interrupted: recorded as failed, never sent again',
  },
};

/** The object schema under config.ts's refinements and transform: one field per variable. */
function settingsShape(): Record<string, z.ZodType> {
  const schema = configSchema as unknown as { in?: { shape?: Record<string, z.ZodType> }; shape?: Record<string, z.ZodType> };
  const shape = schema.in?.shape ?? schema.shape;
  if (!shape) throw new Error('config-docs: the config schema is not an object (under its transform)');
  return shape;
}

interface ZodDef {
  type: string;
  defaultValue?: unknown;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (field: z.ZodType): ZodDef => (field as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The zod description of a field, looked for on the field and the types it wraps. */
function descriptionOf(field: z.ZodType): string | undefined {
  for (let current: z.ZodType | undefined = field; current; ) {
    if (current.description) return current.description;
    const def = defOf(current);
    current = def.innerType ?? def.in;
  }
  return undefined;
}

/** The schema's default for a field, found under its wrappers; undefined when it has none. */
function defaultOf(field: z.ZodType): { value: unknown } | undefined {
  for (let current: z.ZodType | undefined = field; current; ) {
    const def = defOf(current);
    if (def.type === 'default') {
      const value = typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
      return { value };
    }
    current = def.innerType ?? def.in;
  }
  return undefined;
}

export interface SettingRow {
  name: string;
  /** Markdown. */
  default: string;
  /** Markdown. */
  meaning: string;
}

/** Every setting a person may set, in the schema's order; throws naming any without a meaning. */
export function configSettings(): SettingRow[] {
  const rows: SettingRow[] = [];
  const undocumented: string[] = [];
  for (const [name, field] of Object.entries(settingsShape())) {
    const doc = CONFIG_DOCS[name as ConfigKey];
    if (doc?.internal) continue;
    const meaning = descriptionOf(field) ?? doc?.meaning;
    if (!meaning) {
      undocumented.push(name);
      continue;
    }
    const schemaDefault = defaultOf(field);
    rows.push({
      name,
      default: doc?.default ?? (schemaDefault === undefined ? '—' : `\`${String(schemaDefault.value)}\``),
      meaning,
    });
  }
  if (undocumented.length > 0) {
    throw new Error(
      `config-docs: ${undocumented.join(', ')} ${undocumented.length === 1 ? 'has' : 'have'} no description: give ${undocumented.length === 1 ? 'it' : 'each'} a zod .describe() in libs/platform/src/config.ts or an entry in CONFIG_DOCS (libs/platform/src/config-docs.ts)`,
    );
  }
  return rows;
}

/** Entries of CONFIG_DOCS that name no setting of the schema (a renamed or removed variable). */
export function strayConfigDocs(): string[] {
  const names = new Set(Object.keys(settingsShape()));
  return Object.keys(CONFIG_DOCS).filter((name) => !names.has(name));
}

const cell = (markdown: string): string => markdown.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');

/** docs/configuration.md's table. */
export function configTableMarkdown(): string {
  const stray = strayConfigDocs();
  if (stray.length > 0) throw new Error(`config-docs: CONFIG_DOCS describes ${stray.join(', ')}, which the config schema does not have`);
  const rows = configSettings().map((row) => `| \`${row.name}\` | ${cell(row.default)} | ${cell(row.meaning)} |`);
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
