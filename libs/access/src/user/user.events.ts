// Stored contract of the user aggregate (internal events): the people of a workspace who sign in to
// the web portal. Nothing here is personal data in clear or a secret: the email is stored sealed
// (SecretBox, bound to the user), the password only as its scrypt hash, sign-in links and sessions
// only as SHA-256 hashes of their high-entropy tokens.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const userCreated = z.object({
  userId: z.string(),
  workspaceId: z.string(),
  /** `sb1.…`: the email, sealed with the SecretBox for `user:<id>`. */
  emailSealed: z.string(),
  role: z.literal('owner'),
  createdAt: z.string(),
});

export const userPasswordSet = z.object({ userId: z.string(), passwordHash: z.string(), setAt: z.string() });

export const userSignInLinkIssued = z.object({ userId: z.string(), linkHash: z.string(), expiresAt: z.string(), issuedAt: z.string() });

export const userSignedIn = z.object({
  userId: z.string(),
  sessionHash: z.string(),
  method: z.enum(['password', 'link']),
  /** The link used (it cannot be used again); null for a password. */
  linkHash: z.string().nullable(),
  expiresAt: z.string(),
  signedInAt: z.string(),
});

export const userSignedOut = z.object({ userId: z.string(), sessionHash: z.string(), signedOutAt: z.string() });

export type UserEvent =
  | { type: 'user.created'; data: z.infer<typeof userCreated> }
  | { type: 'user.password_set'; data: z.infer<typeof userPasswordSet> }
  | { type: 'user.sign_in_link_issued'; data: z.infer<typeof userSignInLinkIssued> }
  | { type: 'user.signed_in'; data: z.infer<typeof userSignedIn> }
  | { type: 'user.signed_out'; data: z.infer<typeof userSignedOut> };

export const USER_EVENT_TYPES = ['user.created', 'user.password_set', 'user.sign_in_link_issued', 'user.signed_in', 'user.signed_out'] as const;

export const parseUserEvent = parseOnce((event: RecordedEvent): UserEvent => {
  switch (event.type) {
    case 'user.created':
      return { type: event.type, data: userCreated.parse(event.data) };
    case 'user.password_set':
      return { type: event.type, data: userPasswordSet.parse(event.data) };
    case 'user.sign_in_link_issued':
      return { type: event.type, data: userSignInLinkIssued.parse(event.data) };
    case 'user.signed_in':
      return { type: event.type, data: userSignedIn.parse(event.data) };
    case 'user.signed_out':
      return { type: event.type, data: userSignedOut.parse(event.data) };
    default:
      throw new Error(`Not a user event: ${event.type}`);
  }
});

export const userStream = (userId: string) => `user-${userId}`;
