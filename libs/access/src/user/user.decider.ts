// The people of a workspace who sign in to the web portal: created (as the owner, with a sealed
// email), a password set or replaced (replacing one signs out the other sessions), one-time
// sign-in links issued, sessions started (by password or by a link, which is then spent) and
// ended. Sessions and links expire; at most MAX_SESSIONS sessions are kept per user (signing in
// beyond that ends the oldest).
import { type Decider, DomainError } from '@app/platform/domain';

import type { UserEvent } from './user.events';

export const MAX_SESSIONS = 20;

export type UserCommand =
  | { type: 'CreateUser'; userId: string; workspaceId: string; emailSealed: string; now: Date }
  /**
   * A first password, or a new one in place of the old. Replacing one ends every live session but
   * `keepSessionHash` (the portal session that changed it; null from the CLI): whoever knew the old
   * password is signed out. A first password ends none.
   */
  | { type: 'SetPassword'; userId: string; passwordHash: string; keepSessionHash: string | null; now: Date }
  | { type: 'IssueSignInLink'; userId: string; linkHash: string; expiresAt: Date; now: Date }
  /** Password checked already by the handler (against `state.passwordHash`), or a link to spend. */
  | { type: 'SignIn'; userId: string; sessionHash: string; method: 'password' | 'link'; linkHash: string | null; expiresAt: Date; now: Date }
  | { type: 'SignOut'; userId: string; sessionHash: string; now: Date };

export interface UserSession {
  hash: string;
  expiresAt: string;
}

export type UserState =
  | { status: 'none' }
  | {
      status: 'active';
      userId: string;
      workspaceId: string;
      passwordHash: string | null;
      /** Unspent links by hash → expiry. */
      links: Record<string, string>;
      sessions: UserSession[];
    };

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    if (command.type === 'CreateUser') {
      if (state.status !== 'none') throw new DomainError('CONFLICT', 'This workspace already has a user with that email');
      return [
        {
          type: 'user.created',
          data: { userId: command.userId, workspaceId: command.workspaceId, emailSealed: command.emailSealed, role: 'owner', createdAt: command.now.toISOString() },
        },
      ];
    }
    if (state.status === 'none') throw new DomainError('NOT_FOUND', `No user with id ${command.userId}`);
    const now = command.now.toISOString();
    switch (command.type) {
      case 'SetPassword': {
        const events: UserEvent[] = [{ type: 'user.password_set', data: { userId: state.userId, passwordHash: command.passwordHash, setAt: now } }];
        if (state.passwordHash === null) return events;
        for (const session of state.sessions) {
          if (session.expiresAt > now && session.hash !== command.keepSessionHash) {
            events.push({ type: 'user.signed_out', data: { userId: state.userId, sessionHash: session.hash, signedOutAt: now } });
          }
        }
        return events;
      }
      case 'IssueSignInLink':
        return [{ type: 'user.sign_in_link_issued', data: { userId: state.userId, linkHash: command.linkHash, expiresAt: command.expiresAt.toISOString(), issuedAt: now } }];
      case 'SignIn': {
        if (command.method === 'link') {
          const expiry = command.linkHash === null ? undefined : state.links[command.linkHash];
          // Spent, expired or never issued: one answer for all, so a link says nothing about itself.
          if (expiry === undefined || expiry <= now) throw new DomainError('VALIDATION_FAILED', 'This sign-in link is not valid: it was used already, has expired, or was never issued');
        } else if (state.passwordHash === null) {
          throw new DomainError('VALIDATION_FAILED', 'This user has no password: sign in with a link');
        }
        const events: UserEvent[] = [];
        // Beyond the cap, the oldest sessions end first.
        const live = state.sessions.filter((s) => s.expiresAt > now);
        for (const old of live.slice(0, Math.max(0, live.length - (MAX_SESSIONS - 1)))) {
          events.push({ type: 'user.signed_out', data: { userId: state.userId, sessionHash: old.hash, signedOutAt: now } });
        }
        events.push({
          type: 'user.signed_in',
          data: {
            userId: state.userId,
            sessionHash: command.sessionHash,
            method: command.method,
            linkHash: command.method === 'link' ? command.linkHash : null,
            expiresAt: command.expiresAt.toISOString(),
            signedInAt: now,
          },
        });
        return events;
      }
      case 'SignOut':
        // Ending a session that is not (or no longer) there records nothing: signing out twice is fine.
        if (!state.sessions.some((s) => s.hash === command.sessionHash)) return [];
        return [{ type: 'user.signed_out', data: { userId: state.userId, sessionHash: command.sessionHash, signedOutAt: now } }];
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'user.created') {
      return { status: 'active', userId: event.data.userId, workspaceId: event.data.workspaceId, passwordHash: null, links: {}, sessions: [] };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'user.password_set':
        return { ...state, passwordHash: event.data.passwordHash };
      case 'user.sign_in_link_issued':
        return { ...state, links: { ...state.links, [event.data.linkHash]: event.data.expiresAt } };
      case 'user.signed_in': {
        const links = { ...state.links };
        if (event.data.linkHash) delete links[event.data.linkHash];
        // Expired links and sessions are dropped as the stream moves on.
        for (const [hash, expiry] of Object.entries(links)) if (expiry <= event.data.signedInAt) delete links[hash];
        const sessions = state.sessions.filter((s) => s.expiresAt > event.data.signedInAt);
        return { ...state, links, sessions: [...sessions, { hash: event.data.sessionHash, expiresAt: event.data.expiresAt }] };
      }
      case 'user.signed_out':
        return { ...state, sessions: state.sessions.filter((s) => s.hash !== event.data.sessionHash) };
      default:
        return state;
    }
  },
};
