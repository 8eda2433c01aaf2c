// Request and response schemas of the portal's own routes (/portal/api/session): sign in, who is
// signed in, sign out. The portal's pages call the API's routes for everything else.
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
  user: z.object({ id: z.string(), email: z.string(), role: z.literal('owner') }),
  workspace: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  expiresAt: z.string(),
  csrfToken: z.string().meta({ description: 'Send it as `X-CSRF-Token` with every change this session makes.' }),
});

export const signedOutResponse = z.object({ signedOut: z.literal(true) });

export const portalAssetParams = z.strictObject({ file: z.enum(['portal.js', 'portal.css']) });

export type SessionResponse = z.infer<typeof sessionResponse>;
