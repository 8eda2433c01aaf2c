// Stored contract of the workspace aggregate (internal events: never delivered by webhooks).
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const workspaceCreated = z.object({
  workspaceId: z.string(),
  name: z.string(),
  slug: z.string(),
  createdAt: z.string(),
});

/** Claims a slug in a stream of its own, so the log itself guarantees slugs are unique. */
export const workspaceSlugClaimed = z.object({ slug: z.string(), workspaceId: z.string() });

/**
 * The workspace's own request rate limits, all of them after the change (not a delta); null means
 * "the server's default" (RATE_LIMIT_PER_MINUTE / RATE_LIMIT_PER_SECOND).
 */
export const workspaceLimitsSet = z.object({
  workspaceId: z.string(),
  perMinute: z.number().int().positive().nullable(),
  perSecond: z.number().int().positive().nullable(),
  setAt: z.string(),
});

export type WorkspaceLimits = Pick<z.infer<typeof workspaceLimitsSet>, 'perMinute' | 'perSecond'>;

export type WorkspaceEvent =
  | { type: 'workspace.created'; data: z.infer<typeof workspaceCreated> }
  | { type: 'workspace_slug.claimed'; data: z.infer<typeof workspaceSlugClaimed> }
  | { type: 'workspace.limits_set'; data: z.infer<typeof workspaceLimitsSet> };

export const WORKSPACE_EVENT_TYPES = ['workspace.created', 'workspace_slug.claimed', 'workspace.limits_set'] as const;

export const parseWorkspaceEvent = parseOnce((event: RecordedEvent): WorkspaceEvent => {
  switch (event.type) {
    case 'workspace.created':
      return { type: event.type, data: workspaceCreated.parse(event.data) };
    case 'workspace_slug.claimed':
      return { type: event.type, data: workspaceSlugClaimed.parse(event.data) };
    case 'workspace.limits_set':
      return { type: event.type, data: workspaceLimitsSet.parse(event.data) };
    default:
      throw new Error(`Not a workspace event: ${event.type}`);
  }
});

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;
export const slugStream = (slug: string) => `workspace_slug-${slug}`;
