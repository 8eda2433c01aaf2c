// The CLI's commands. Each returns the JSON it prints.
import { parseArgs } from 'node:util';

import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { INestApplicationContext } from '@nestjs/common';

import {
  CreateApiKeyCommand,
  CreateUserCommand,
  CreateWorkspaceCommand,
  IssueSignInLinkCommand,
  type LimitsChange,
  SetPasswordCommand,
  SetWorkspaceLimitsCommand,
  WorkspaceDirectory,
  WorkspaceRateLimits,
} from '@app/access';
import { ApiError, APP_CONFIG, type AppConfig, findHostileText, IdempotencyStore, ProcessManagerRunner, ProjectionRunner, publicBaseUrl } from '@app/platform';
import {
  AuditSellerTrustQuery,
  GetSellerTrustQuery,
  ListSigningKeysQuery,
  ReinstateSellerTrustCommand,
  RevokeSellerTrustCommand,
  RotateSigningKeyCommand,
} from '@app/trust';

import { demoSeed, MAX_SCALE } from './demo-seed';
import { ProgressReporter } from './progress';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: npm run cli -- <command>

  workspace create --name <name> --slug <slug>
      Creates a workspace and its first full-access API key (the secret is shown once).
  workspace limits --workspace <slug> [--per-minute <n>|default] [--per-second <n>|default]
      Sets the workspace's own request rate limits ("default": the server's RATE_LIMIT_PER_MINUTE /
      RATE_LIMIT_PER_SECOND) and prints the limits in effect; without a flag, only prints them.
      A running server applies a change within a second.
  key create --workspace <slug> --name <name> [--scopes <scope,scope,...>]
      Creates an API key; no --scopes (or blank) means full access.
  user create --workspace <slug> --email <email> [--password-stdin]
      Creates a person who signs in to the web portal (/portal) as the workspace's owner, and
      prints a one-time sign-in link (valid 30 minutes) to open as printed: on PUBLIC_BASE_URL,
      else the running server's own address, else http://localhost:$PORT. --password-stdin reads
      a password (12-1024 characters) from standard input, to sign in with it as well.
  user link --workspace <slug> --email <email>
      Prints a new one-time sign-in link for that person.
  user password --workspace <slug> --email <email> --password-stdin
      Gives that person a password (12-1024 characters, read from standard input, never from the
      command line), or a new one in place of theirs: replacing one signs out all their sessions.
      Signed in, a person can do the same on the portal's Account page.
  projections status
      Each projection's position, the log's head and the lag.
  projections rebuild <name> | --all
      Drops a read model and replays it from the event log: a progress bar with the rate and an
      ETA on stderr; each projection's events, time and events/s in the answer. Refused when the
      log ends before what the read models applied (a lost or replaced log): see reset.
  projections reset
      Starts the read side over from the log as it is now: drops every read model (rebuilt from
      the log at the next start, or by rebuild --all), moves the process managers back to the
      log's end, and forgets stored Idempotency-Key answers. For a log that was lost or replaced
      by an older copy, once you mean to go on with it; the log itself is not touched.
  trust rotate-key
      A new key signs trust credentials from now on; the old one stays listed (GET
      /api/v1/trust/public-key) while a credential it signed may still be valid.
  trust revoke --seller <slug> --reason <text>
      Flags a seller: its credentials are revoked (the status list says so) and none is issued
      until \`trust reinstate\`.
  trust reinstate --seller <slug>
      Lifts the flag; a fresh credential is issued shortly after.
  trust audit --seller <slug>
      Recomputes the seller's current credential's inputs from the event log, as of its issue
      time, and reports whether the hash, the score and the signature agree (exit 1 if not).
  demo seed --workspace <slug> [--scale <n>]
      Fills an existing workspace with demo data from the bundled card data (libs/catalog/data),
      the same on every run: stock across ~40 cards of 4 sets, buyer requests (missed demand and
      archived ones too), offers, trades taken to paid … settled, and planted price outliers
      (5x and 0.3x the card's band). --scale (1-${MAX_SCALE}, default 1) multiplies the counts. Written
      through the contexts' commands under a simulated clock: the history spans the past six weeks
      (what is still pending is from the final day; no deadline is left in the past). Refuses a
      workspace seeded already. Progress on stderr (a line per simulated week); a JSON summary
      (counts, the clock, the outliers' item ids) on stdout.
`;

type Handler = (app: INestApplicationContext, args: string[]) => Promise<unknown>;

/** Commands that run on a log shorter than what the read side applied: they look at it or repair it. */
export const UNGUARDED_COMMANDS: ReadonlySet<string> = new Set(['projections status', 'projections reset']);

function options<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${flag} is required`);
  // The API's one rule for text holds here too: no control or bidi characters, no lone surrogates.
  const hostile = findHostileText(value);
  if (hostile) throw new UsageError(`--${flag} contains ${hostile.found}; remove it`);
  return value;
}

const workspaceCreate: Handler = async (app, args) => {
  const { values } = options(args, { name: { type: 'string' }, slug: { type: 'string' } });
  const created = await app
    .get(CommandBus)
    .execute(new CreateWorkspaceCommand(required(values.name, 'name'), required(values.slug, 'slug'), 'cli'));
  await app.get(ProjectionRunner).catchUp();
  return { workspace: created.workspace, apiKey: created.apiKey };
};

/** `600` → 600, `default` → null (back to the server's default), absent → undefined (unchanged). */
function limitFlag(value: string | boolean | undefined, flag: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  throw new UsageError(`--${flag} takes a whole number of requests or "default"`);
}

const workspaceLimits: Handler = async (app, args) => {
  const { values } = options(args, {
    workspace: { type: 'string' },
    'per-minute': { type: 'string' },
    'per-second': { type: 'string' },
  });
  const slug = required(values.workspace, 'workspace');
  const change: LimitsChange = {};
  const perMinute = limitFlag(values['per-minute'], 'per-minute');
  const perSecond = limitFlag(values['per-second'], 'per-second');
  if (perMinute !== undefined) change.perMinute = perMinute;
  if (perSecond !== undefined) change.perSecond = perSecond;

  const runner = app.get(ProjectionRunner);
  const directory = app.get(WorkspaceDirectory);
  await runner.catchUp();
  const found = await directory.bySlug(slug);
  if (!found) throw new ApiError(404, 'NOT_FOUND', `No workspace with slug "${slug}"`);
  if (Object.keys(change).length > 0) {
    await app.get(CommandBus).execute(new SetWorkspaceLimitsCommand(found.id, change, 'cli'));
    // The server reads the read model: bring it up to date before answering.
    await runner.catchUp();
  }
  const workspace = (await directory.byId(found.id)) ?? found;
  return {
    workspace: { id: workspace.id, name: workspace.name, slug: workspace.slug },
    // In effect: the workspace's own limits, else this process's RATE_LIMIT_PER_* (the server's
    // when both run with the same environment).
    limits: app.get(WorkspaceRateLimits).effective(workspace.limits),
    // The workspace's own limits; null = the server default.
    overrides: { perMinute: workspace.limits?.perMinute ?? null, perSecond: workspace.limits?.perSecond ?? null },
  };
};

const keyCreate: Handler = async (app, args) => {
  const { values } = options(args, { workspace: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } });
  const slug = required(values.workspace, 'workspace');
  const runner = app.get(ProjectionRunner);
  await runner.catchUp();
  const workspace = await app.get(WorkspaceDirectory).bySlug(slug);
  if (!workspace) throw new ApiError(404, 'NOT_FOUND', `No workspace with slug "${slug}"`);
  const scopes = (values.scopes ?? '').split(',');
  const key = await app.get(CommandBus).execute(new CreateApiKeyCommand(workspace.id, required(values.name, 'name'), scopes, 'cli'));
  await runner.catchUp();
  return { id: key.id, name: key.name, scopes: key.scopes, secret: key.secret };
};

const projectionsStatus: Handler = async (app) => ({ projections: await app.get(ProjectionRunner).status() });

const projectionsRebuild: Handler = async (app, args) => {
  const { values, positionals } = options(args, { all: { type: 'boolean' } });
  const runner = app.get(ProjectionRunner);
  const names = values.all ? runner.names() : positionals;
  if (names.length === 0) throw new UsageError('name a projection or pass --all');
  for (const name of names) {
    if (!runner.names().includes(name)) throw new UsageError(`unknown projection "${name}" (known: ${runner.names().join(', ')})`);
  }
  const head = await runner.headPosition();
  // One pass over the log for every projection named: each batch is read once and handed to all
  // of them. Progress on stderr (the JSON answer stays alone on stdout): position in the log, rate, ETA.
  const label = names.length === 1 ? names[0] : `${names.length} read models`;
  const progress = new ProgressReporter();
  const began = Date.now();
  let events = 0;
  await runner.rebuild(names, (batch) => {
    events += batch.events;
    progress.update({ label: `rebuild ${label}`, done: batch.position, total: head, counted: events, unit: 'events' });
  });
  const tookMs = Date.now() - began;
  const eventsPerSecond = Math.round(events / Math.max(0.001, tookMs / 1000));
  progress.finish(`rebuild ${label}: ${events.toLocaleString('en')} events in ${(tookMs / 1000).toFixed(1)} s (${eventsPerSecond.toLocaleString('en')} events/s)`);
  return { rebuilt: names, tookMs, runs: [{ names, events, tookMs, eventsPerSecond }], projections: await runner.status() };
};

const projectionsReset: Handler = async (app) => {
  const runner = app.get(ProjectionRunner);
  const head = await runner.headPosition();
  const reset = await runner.resetAll();
  const processManagers = await app.get(ProcessManagerRunner).rewindTo(head);
  const idempotencyKeysForgotten = await app.get(IdempotencyStore).clear();
  return {
    logHead: head,
    reset,
    processManagers,
    idempotencyKeysForgotten,
    note: 'the read models are rebuilt from the log when the server starts (or now: npm run cli -- projections rebuild --all)',
  };
};

/** The seller (workspace) a --seller slug names, with the read models brought up to date first. */
async function sellerOf(app: INestApplicationContext, slug: string): Promise<{ id: string; slug: string }> {
  await app.get(ProjectionRunner).catchUp();
  const workspace = await app.get(WorkspaceDirectory).bySlug(slug);
  if (!workspace) throw new ApiError(404, 'NOT_FOUND', `No seller (workspace) with slug "${slug}"`);
  return workspace;
}

const trustRotateKey: Handler = async (app) => {
  const rotated = await app.get(CommandBus).execute(new RotateSigningKeyCommand());
  return { activeKid: rotated.kid, retiredKid: rotated.retired, keys: await app.get(QueryBus).execute(new ListSigningKeysQuery()) };
};

const trustRevoke: Handler = async (app, args) => {
  const { values } = options(args, { seller: { type: 'string' }, reason: { type: 'string' } });
  const seller = await sellerOf(app, required(values.seller, 'seller'));
  const { changed } = await app.get(CommandBus).execute(new RevokeSellerTrustCommand(seller.id, 'operator', required(values.reason, 'reason'), 'cli'));
  await app.get(ProjectionRunner).catchUp();
  return { seller: seller.slug, revoked: changed, flag: (await app.get(QueryBus).execute(new GetSellerTrustQuery(seller.id)))?.flag ?? null };
};

const trustReinstate: Handler = async (app, args) => {
  const { values } = options(args, { seller: { type: 'string' } });
  const seller = await sellerOf(app, required(values.seller, 'seller'));
  const { changed } = await app.get(CommandBus).execute(new ReinstateSellerTrustCommand(seller.id, 'operator', 'cli'));
  await app.get(ProjectionRunner).catchUp();
  return { seller: seller.slug, reinstated: changed, note: changed ? 'a fresh credential is issued by the running service shortly' : 'the seller was not flagged' };
};

const trustAudit: Handler = async (app, args) => {
  const { values } = options(args, { seller: { type: 'string' } });
  const seller = await sellerOf(app, required(values.seller, 'seller'));
  const report = await app.get(QueryBus).execute(new AuditSellerTrustQuery(seller.slug));
  if (!report.agrees) process.exitCode = 1;
  return report;
};

const demoSeedCommand: Handler = async (app, args) => {
  const { values } = options(args, { workspace: { type: 'string' }, scale: { type: 'string' } });
  const slug = required(values.workspace, 'workspace');
  const scale = values.scale ?? '1';
  if (!/^\d{1,3}$/.test(scale) || Number(scale) < 1 || Number(scale) > MAX_SCALE) {
    throw new UsageError(`--scale takes a whole number from 1 to ${MAX_SCALE}`);
  }
  return demoSeed(app, { slug, scale: Number(scale) });
};

/** The workspace a --workspace flag names, with the read models caught up first. */
async function workspaceOf(app: INestApplicationContext, value: string | boolean | undefined) {
  const slug = required(value, 'workspace');
  await app.get(ProjectionRunner).catchUp();
  const workspace = await app.get(WorkspaceDirectory).bySlug(slug);
  if (!workspace) throw new ApiError(404, 'NOT_FOUND', `No workspace with slug "${slug}"`);
  return workspace;
}

/**
 * The portal URL that signs in with a link token (a fragment: browsers never send it to a server),
 * on the service's public address: PUBLIC_BASE_URL, else the running server's, else localhost:PORT.
 */
function signInLink(app: INestApplicationContext, token: string): string {
  return `${publicBaseUrl(app.get<AppConfig>(APP_CONFIG))}/portal/#link=${token}`;
}

/** Standard input, whole, less one final line break: a password piped in (`printf '%s' … |`), or typed then Ctrl-D. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Type the password, then Enter and Ctrl-D (or pipe it in: printf \'%s\' "…" | npm run cli -- …)\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const userCreate: Handler = async (app, args) => {
  const { values } = options(args, { workspace: { type: 'string' }, email: { type: 'string' }, 'password-stdin': { type: 'boolean' } });
  const workspace = await workspaceOf(app, values.workspace);
  const password = values['password-stdin'] ? await readStdin() : null;
  const user = await app.get(CommandBus).execute(new CreateUserCommand(workspace.id, required(values.email, 'email'), password, 'cli'));
  await app.get(ProjectionRunner).catchUp();
  return {
    user: { id: user.id, email: user.email, role: user.role, hasPassword: user.hasPassword },
    workspace: { id: workspace.id, slug: workspace.slug },
    signInLink: signInLink(app, user.signInToken),
    signInLinkExpiresAt: user.signInTokenExpiresAt,
  };
};

const userLink: Handler = async (app, args) => {
  const { values } = options(args, { workspace: { type: 'string' }, email: { type: 'string' } });
  const workspace = await workspaceOf(app, values.workspace);
  const link = await app.get(CommandBus).execute(new IssueSignInLinkCommand(workspace.id, required(values.email, 'email'), 'cli'));
  await app.get(ProjectionRunner).catchUp();
  return { user: { id: link.userId }, signInLink: signInLink(app, link.signInToken), signInLinkExpiresAt: link.expiresAt };
};

const userPassword: Handler = async (app, args) => {
  const { values } = options(args, { workspace: { type: 'string' }, email: { type: 'string' }, 'password-stdin': { type: 'boolean' } });
  const workspace = await workspaceOf(app, values.workspace);
  const email = required(values.email, 'email');
  if (!values['password-stdin']) throw new UsageError('--password-stdin is required: the password is read from standard input, never from the command line');
  const set = await app.get(CommandBus).execute(new SetPasswordCommand(workspace.id, email, await readStdin(), 'cli'));
  // The server's guard reads the read model: the sessions ended are refused from the answer on.
  await app.get(ProjectionRunner).catchUp();
  return {
    user: { id: set.userId, hasPassword: true },
    workspace: { id: workspace.id, slug: workspace.slug },
    replaced: set.replaced,
    sessionsEnded: set.sessionsEnded,
  };
};

export const COMMANDS: Record<string, Handler> = {
  'workspace create': workspaceCreate,
  'workspace limits': workspaceLimits,
  'key create': keyCreate,
  'user create': userCreate,
  'user link': userLink,
  'user password': userPassword,
  'projections status': projectionsStatus,
  'projections rebuild': projectionsRebuild,
  'projections reset': projectionsReset,
  'trust rotate-key': trustRotateKey,
  'trust revoke': trustRevoke,
  'trust reinstate': trustReinstate,
  'trust audit': trustAudit,
  'demo seed': demoSeedCommand,
};
