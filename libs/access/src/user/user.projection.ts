// Read model of portal users: who they are (email sealed), whether a password is set, and their
// live sessions by token hash — what the auth guard checks for a request signed in with a cookie.
import { documentProjection, type StreamDoc } from '@app/platform';

import { USER_EVENT_TYPES, userCreated, userPasswordSet, userSignedIn, userSignedOut } from './user.events';

export interface UserDoc extends StreamDoc {
  workspaceId: string;
  emailSealed: string;
  role: 'owner';
  createdAt: string;
  hasPassword: boolean;
  sessions: Array<{ hash: string; expiresAt: string; signedInAt: string; method: 'password' | 'link' }>;
  lastSignInAt: string | null;
}

export const USERS = {
  name: 'portal_users',
  indexes: [{ name: 'by_workspace', fields: [['workspaceId', 1], ['createdAt', 1], ['id', 1]] }],
} as const;

export const userProjection = documentProjection<UserDoc>({
  name: 'portal_users',
  version: 1,
  // What the guard checks a session cookie against: a sign-in or sign-out brings it up to date, so
  // the session works (or has ended) from the answer on.
  inline: true,
  collection: USERS,
  eventTypes: [...USER_EVENT_TYPES],
  evolve(doc, event) {
    if (event.type === 'user.created') {
      const d = userCreated.parse(event.data);
      return { id: d.userId, revision: event.revision, workspaceId: d.workspaceId, emailSealed: d.emailSealed, role: d.role, createdAt: d.createdAt, hasPassword: false, sessions: [], lastSignInAt: null };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'user.password_set':
        userPasswordSet.parse(event.data);
        return { ...doc, hasPassword: true };
      case 'user.signed_in': {
        const d = userSignedIn.parse(event.data);
        const live = doc.sessions.filter((s) => s.expiresAt > d.signedInAt);
        return { ...doc, sessions: [...live, { hash: d.sessionHash, expiresAt: d.expiresAt, signedInAt: d.signedInAt, method: d.method }], lastSignInAt: d.signedInAt };
      }
      case 'user.signed_out': {
        const d = userSignedOut.parse(event.data);
        return { ...doc, sessions: doc.sessions.filter((s) => s.hash !== d.sessionHash) };
      }
      default:
        return doc;
    }
  },
});
