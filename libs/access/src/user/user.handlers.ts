// Command handlers for portal users: create one (the CLI), issue a one-time sign-in link, set a
// password (the operator's, by email) or change one's own (from the portal), sign in (by password
// or by link) and sign out. Every change goes through the user's stream; a sign-in answers the
// session token (a cookie's value) once, and only its hash is kept, as only a password's scrypt hash is.
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, InlineProjections, READ_STORE, type ReadStore, SECRET_BOX, type SecretBox } from '@app/platform';
import { DomainError, handleCommand } from '@app/platform/domain';

import { WorkspaceDirectory } from '../workspace/workspace.queries';
import { type UserCommand, userDecider, type UserState } from './user.decider';
import { parseUserEvent, userStream } from './user.events';
import { type UserDoc, userProjection, USERS } from './user.projection';
import { hashPassword, hashToken, isEmail, newToken, NO_PASSWORD, normalizeEmail, PASSWORD_MAX, PASSWORD_MIN, tokenUser, userIdFor, verifyPassword } from './user.secrets';

export const userAggregate = { decider: userDecider, parseEvent: parseUserEvent };

/** A session lasts 12 hours from sign-in; a sign-in link, 30 minutes from its issue. */
export const SESSION_MS = 12 * 3_600_000;
export const LINK_MS = 30 * 60_000;

/** The derived keys the portal's identities use (ids from emails, CSRF tokens from sessions). */
@Injectable()
export class PortalKeys {
  readonly userIds: Buffer;
  readonly csrf: Buffer;

  constructor(@Inject(SECRET_BOX) readonly box: SecretBox) {
    this.userIds = box.deriveKey('portal-user-id');
    this.csrf = box.deriveKey('portal-csrf');
  }

  userId(workspaceId: string, email: string): string {
    return userIdFor(this.userIds, workspaceId, email);
  }
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!isEmail(normalized)) throw DomainError.validation('That is not an email address', [{ path: 'email', message: 'must be an email address' }]);
  return normalized;
}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw DomainError.validation(`A password needs ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, [
      { path: 'password', message: `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters` },
    ]);
  }
}

export interface CreatedUser {
  id: string;
  workspaceId: string;
  email: string;
  role: 'owner';
  hasPassword: boolean;
  /** A one-time sign-in link's token (`psl_…`), valid for 30 minutes. */
  signInToken: string;
  signInTokenExpiresAt: string;
}

export class CreateUserCommand extends Command<CreatedUser> {
  constructor(
    readonly workspaceId: string,
    readonly email: string,
    readonly password: string | null,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly keys: PortalKeys,
  ) {}

  async execute({ workspaceId, email, password, actor }: CreateUserCommand): Promise<CreatedUser> {
    const normalized = checkEmail(email);
    if (password !== null) checkPassword(password);
    const userId = this.keys.userId(workspaceId, normalized);
    const now = this.clock.now();
    const stream = userStream(userId);
    const meta = { workspaceId, actor };
    await handleCommand(this.events, stream, userAggregate, { type: 'CreateUser', userId, workspaceId, emailSealed: this.keys.box.seal(normalized, `user:${userId}`), now }, meta, {
      newStream: true,
    });
    if (password !== null) {
      await handleCommand(this.events, stream, userAggregate, { type: 'SetPassword', userId, passwordHash: await hashPassword(password), keepSessionHash: null, now }, meta);
    }
    const token = newToken('link', userId);
    const expiresAt = new Date(now.getTime() + LINK_MS);
    await handleCommand(this.events, stream, userAggregate, { type: 'IssueSignInLink', userId, linkHash: hashToken(token), expiresAt, now }, meta);
    return { id: userId, workspaceId, email: normalized, role: 'owner', hasPassword: password !== null, signInToken: token, signInTokenExpiresAt: expiresAt.toISOString() };
  }
}

export class IssueSignInLinkCommand extends Command<{ userId: string; signInToken: string; expiresAt: string }> {
  constructor(
    readonly workspaceId: string,
    readonly email: string,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(IssueSignInLinkCommand)
export class IssueSignInLinkHandler implements ICommandHandler<IssueSignInLinkCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly keys: PortalKeys,
  ) {}

  async execute({ workspaceId, email, actor }: IssueSignInLinkCommand): Promise<{ userId: string; signInToken: string; expiresAt: string }> {
    const userId = this.keys.userId(workspaceId, checkEmail(email));
    const token = newToken('link', userId);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + LINK_MS);
    await handleCommand(this.events, userStream(userId), userAggregate, { type: 'IssueSignInLink', userId, linkHash: hashToken(token), expiresAt, now }, { workspaceId, actor });
    return { userId, signInToken: token, expiresAt: expiresAt.toISOString() };
  }
}

/** What setting a password did: a first one, or one replacing another (which ends the other sessions). */
export interface PasswordSet {
  userId: string;
  /** True when it replaced a password (not a first one). */
  replaced: boolean;
  /** Sessions signed out by it. */
  sessionsEnded: number;
}

/** The operator's: gives a workspace's person (by email) a first password, or a new one (the CLI's `user password`). */
export class SetPasswordCommand extends Command<PasswordSet> {
  constructor(
    readonly workspaceId: string,
    readonly email: string,
    readonly password: string,
    readonly actor: string,
  ) {
    super();
  }
}

/** What a write of `user.password_set` told: whether it replaced one, and how many sessions it ended. */
function passwordSet(userId: string, previous: UserState, events: ReadonlyArray<{ type: string }>): PasswordSet {
  return { userId, replaced: previous.status === 'active' && previous.passwordHash !== null, sessionsEnded: events.filter((e) => e.type === 'user.signed_out').length };
}

@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly keys: PortalKeys,
  ) {}

  async execute({ workspaceId, email, password, actor }: SetPasswordCommand): Promise<PasswordSet> {
    const userId = this.keys.userId(workspaceId, checkEmail(email));
    checkPassword(password);
    const passwordHash = await hashPassword(password);
    let previous: UserState = { status: 'none' };
    const result = await handleCommand(
      this.events,
      userStream(userId),
      userAggregate,
      (state: UserState): UserCommand => {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', 'No one with that email signs in to this workspace: create them with `user create`');
        previous = state;
        return { type: 'SetPassword', userId, passwordHash, keepSessionHash: null, now: this.clock.now() };
      },
      { workspaceId, actor },
    );
    return passwordSet(userId, previous, result.events);
  }
}

/**
 * The signed-in person's own: a first password, or a new one in place of the current one (which
 * they must give). The session that asks stays signed in; their other sessions end.
 */
export class ChangePasswordCommand extends Command<PasswordSet> {
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    /** Needed when the user has a password already; ignored otherwise. */
    readonly currentPassword: string | null,
    readonly newPassword: string,
    /** The session (`pss_…`) making the change: kept. */
    readonly sessionToken: string,
  ) {
    super();
  }
}

@CommandHandler(ChangePasswordCommand)
export class ChangePasswordHandler implements ICommandHandler<ChangePasswordCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, userId, currentPassword, newPassword, sessionToken }: ChangePasswordCommand): Promise<PasswordSet> {
    checkPassword(newPassword);
    const passwordHash = await hashPassword(newPassword);
    let previous: UserState = { status: 'none' };
    const result = await handleCommand(
      this.events,
      userStream(userId),
      userAggregate,
      async (state: UserState): Promise<UserCommand> => {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', 'No such user');
        if (state.passwordHash !== null && !(currentPassword !== null && (await verifyPassword(currentPassword, state.passwordHash)))) {
          throw DomainError.validation('Your current password is not right', [{ path: 'currentPassword', message: 'is not your current password' }]);
        }
        previous = state;
        return { type: 'SetPassword', userId, passwordHash, keepSessionHash: hashToken(sessionToken), now: this.clock.now() };
      },
      { workspaceId, actor: userId },
    );
    return passwordSet(userId, previous, result.events);
  }
}

export interface StartedSession {
  /** The user's document as the sign-in left it (the guard reads it: the session works from now on). */
  user: UserDoc;
  /** The session token (`pss_…`): the cookie's value, shown once. */
  sessionToken: string;
  expiresAt: string;
}

/** Sign-in by workspace slug, email and password; or by a one-time link token. */
export type SignInCredentials = { kind: 'password'; workspace: string; email: string; password: string } | { kind: 'link'; token: string };

/** Refused credentials all answer the same, whichever part was wrong (the portal answers 401 SIGN_IN_REFUSED). */
export class SignInRefusedError extends Error {
  override readonly name = 'SignInRefusedError';
  constructor() {
    super('Sign-in refused: the workspace, email and password do not match, or the link is not valid (links work once, for 30 minutes)');
  }
}

export class SignInCommand extends Command<StartedSession> {
  constructor(readonly credentials: SignInCredentials) {
    super();
  }
}

@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly keys: PortalKeys,
    private readonly workspaces: WorkspaceDirectory,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ credentials }: SignInCommand): Promise<StartedSession> {
    const refused = () => new SignInRefusedError();
    let userId: string | undefined;
    let workspaceId: string | undefined;
    if (credentials.kind === 'password') {
      const workspace = await this.workspaces.bySlug(credentials.workspace.trim().toLowerCase());
      workspaceId = workspace?.id;
      userId = workspace && isEmail(normalizeEmail(credentials.email)) ? this.keys.userId(workspace.id, credentials.email) : undefined;
    } else {
      userId = tokenUser('link', credentials.token);
      // A link names its user; the user's workspace comes from the read model (inline: written by
      // the user's creation itself). The link itself is judged on the user's stream below.
      workspaceId = userId ? (await this.reads.collection<UserDoc>(USERS).get(userId))?.workspaceId : undefined;
    }
    const sessionToken = userId ? newToken('session', userId) : '';
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_MS);
    if (!userId || !workspaceId) {
      // The same scrypt work as a real check, so an unknown workspace or email takes as long as a wrong password.
      if (credentials.kind === 'password') await verifyPassword(credentials.password, NO_PASSWORD);
      throw refused();
    }
    const id = userId;
    const ws = workspaceId;
    const result = await handleCommand(
      this.events,
      userStream(id),
      userAggregate,
      async (state: UserState): Promise<UserCommand> => {
        if (state.status === 'none') {
          if (credentials.kind === 'password') await verifyPassword(credentials.password, NO_PASSWORD);
          throw refused();
        }
        if (credentials.kind === 'password') {
          const ok = await verifyPassword(credentials.password, state.passwordHash ?? NO_PASSWORD);
          if (!ok || state.passwordHash === null) throw refused();
          return { type: 'SignIn', userId: id, sessionHash: hashToken(sessionToken), method: 'password', linkHash: null, expiresAt, now };
        }
        const linkHash = hashToken(credentials.token);
        const expiry = state.links[linkHash];
        if (expiry === undefined || expiry <= now.toISOString()) throw refused();
        return { type: 'SignIn', userId: id, sessionHash: hashToken(sessionToken), method: 'link', linkHash, expiresAt, now };
      },
      { workspaceId: ws, actor: id },
    );
    const user = await this.inline.document(userProjection, userStream(id), result.documents);
    if (!user) throw refused();
    return { user, sessionToken, expiresAt: expiresAt.toISOString() };
  }
}

/** Ends a session: the user's document (what the guard reads) no longer holds it once this returns. */
export class SignOutCommand extends Command<void> {
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    readonly sessionToken: string,
  ) {
    super();
  }
}

@CommandHandler(SignOutCommand)
export class SignOutHandler implements ICommandHandler<SignOutCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, userId, sessionToken }: SignOutCommand): Promise<void> {
    await handleCommand(this.events, userStream(userId), userAggregate, { type: 'SignOut', userId, sessionHash: hashToken(sessionToken), now: this.clock.now() }, { workspaceId, actor: userId });
  }
}

export const USER_COMMAND_HANDLERS = [CreateUserHandler, IssueSignInLinkHandler, SetPasswordHandler, ChangePasswordHandler, SignInHandler, SignOutHandler];
