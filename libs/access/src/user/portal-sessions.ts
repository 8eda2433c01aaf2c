// The check the auth guard makes for a request signed in to the portal (a session cookie instead
// of an API key): the token's hash must be one of its user's live sessions. A session acts as its
// user — the workspace's owner, with every scope — and its changes need the session's CSRF token.
import { Inject, Injectable } from '@nestjs/common';

import { type AuthContext, CLOCK, type Clock, READ_STORE, type ReadStore } from '@app/platform';

import { PortalKeys } from './user.handlers';
import { type UserDoc, USERS } from './user.projection';
import { csrfTokenFor, hashToken, sameText, tokenUser } from './user.secrets';

/** The session cookie's name. */
export const SESSION_COOKIE = 'portal_session';

export interface PortalSession {
  auth: AuthContext;
  user: UserDoc;
  expiresAt: string;
  csrfToken: string;
}

@Injectable()
export class PortalSessions {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly keys: PortalKeys,
  ) {}

  /** The live session a token opens, or null (malformed, unknown, ended or expired). */
  async open(token: string): Promise<PortalSession | null> {
    const userId = tokenUser('session', token);
    if (!userId) return null;
    const user = await this.reads.collection<UserDoc>(USERS).get(userId);
    return user ? this.of(user, token) : null;
  }

  /** The live session a token opens in a user's document (one a sign-in just left, or the read model's), or null. */
  of(user: UserDoc, token: string): PortalSession | null {
    if (tokenUser('session', token) !== user.id) return null;
    const hash = hashToken(token);
    const now = this.clock.now().toISOString();
    const session = user.sessions.find((s) => sameText(s.hash, hash) && s.expiresAt > now);
    if (!session) return null;
    return {
      auth: { workspaceId: user.workspaceId, keyId: user.id, scopes: ['admin'], via: 'session' },
      user,
      expiresAt: session.expiresAt,
      csrfToken: this.csrfToken(token),
    };
  }

  csrfToken(sessionToken: string): string {
    return csrfTokenFor(this.keys.csrf, sessionToken);
  }

  /** Whether `presented` is the session's CSRF token (constant time). */
  csrfMatches(sessionToken: string, presented: string | undefined): boolean {
    return typeof presented === 'string' && sameText(presented, this.csrfToken(sessionToken));
  }

  /** The email a user's document holds, opened (personal data: answer only, never log). */
  email(user: UserDoc): string {
    return this.keys.box.open(user.emailSealed, `user:${user.id}`);
  }
}

/** The value of one cookie in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
