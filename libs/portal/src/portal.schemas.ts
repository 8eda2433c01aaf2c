// Request and response schemas of the portal's own routes (/portal/api/…): sign in, who is signed
// in, sign out, set one's password. The portal's pages call the API's routes for everything else.
import { z } from 'zod';

export const signInBody = z.union([
  z.strictObject({
    workspace: z.string().trim().min(1).max(100).meta({ description: "The workspace's slug." }),
    email: z.string().trim().min(3).max(254),
    password: z.string().min(1).max(1024),
  }),
  z.strictObject({ token: z.string().min(1).max(200).meta({ description: 'A one-time sign-in link\'s token (`psl_…`, from `npm run cli -- user create` or `user link`).' }) }),
]);

export const sessionResponse = z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    role: z.literal('owner'),
    hasPassword: z.boolean().meta({ description: 'Whether the person has a password (else they sign in with one-time links only).' }),
  }),
  workspace: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  expiresAt: z.string(),
  csrfToken: z.string().meta({ description: 'Send it as `X-CSRF-Token` with every change this session makes.' }),
});

export const signedOutResponse = z.object({ signedOut: z.literal(true) });

export const passwordBody = z.strictObject({
  currentPassword: z.string().max(1024).nullish().meta({ description: 'The password now; needed when the person has one (not for a first password).' }),
  newPassword: z.string().max(1024).meta({ description: 'The new password: 12 to 1,024 characters.' }),
});

export const passwordSetResponse = z.object({
  passwordSet: z.literal(true),
  replaced: z.boolean().meta({ description: 'True when it replaced a password (not a first one).' }),
  sessionsEnded: z.number().int().meta({ description: "The person's other sessions it signed out (replacing a password ends them; this one goes on)." }),
});

export const passwordExample = { currentPassword: 'correct horse battery staple', newPassword: 'a longer and newer passphrase' };

export const portalAssetParams = z.strictObject({ file: z.enum(['portal.js', 'portal.css']).meta({ description: "The portal's script or stylesheet.", examples: ['portal.js'] }) });

export type SessionResponse = z.infer<typeof sessionResponse>;

export const signInExample = { workspace: 'acme', email: 'owner@acme.example', password: 'correct horse battery staple' };

export const sessionExample: SessionResponse = {
  user: { id: 'usr_01M88NDVNHEMJ830HEWW9JG685', email: 'owner@acme.example', role: 'owner', hasPassword: true },
  workspace: { id: 'ws_01M88NDVNHEMJ830HEWW9JG685', slug: 'acme', name: 'Acme Cards' },
  expiresAt: '2026-11-25T18:14:02.668Z',
  csrfToken: 'VbH0a7W3m0c3xZ2QeJ4n9r1y6tP8sK5dL2fA0gU7hXo',
};
