// Read model of workspaces: lookup by id and by slug (the CLI addresses workspaces by slug), and
// the workspace's own rate limits, which the auth guard reads.
import { documentProjection, type StreamDoc } from '@app/platform';

import { DEFAULT_LIMITS } from './workspace.decider';
import { workspaceCreated, type WorkspaceLimits, workspaceLimitsSet } from './workspace.events';

export interface WorkspaceDoc extends StreamDoc {
  name: string;
  slug: string;
  createdAt: string;
  /**
   * The workspace's own limits; null = the server's default. Absent from documents of version 1
   * until a server rebuilds them (the CLI never rebuilds at start), which reads as "all default".
   */
  limits?: WorkspaceLimits;
}

export const WORKSPACES = {
  name: 'workspaces',
  indexes: [{ name: 'by_slug', fields: [['slug', 1]], unique: true }],
} as const;

export const workspaceProjection = documentProjection<WorkspaceDoc>({
  name: 'workspaces',
  // 2: documents carry `limits`.
  version: 2,
  // The workspace's own read model (the guard's limits, the slug look-ups): brought up to date by
  // the write that changes it.
  inline: true,
  collection: WORKSPACES,
  eventTypes: ['workspace.created', 'workspace.limits_set'],
  evolve(doc, event) {
    if (event.type === 'workspace.limits_set') {
      const data = workspaceLimitsSet.parse(event.data);
      return doc && { ...doc, limits: { perMinute: data.perMinute, perSecond: data.perSecond } };
    }
    const data = workspaceCreated.parse(event.data);
    return {
      id: data.workspaceId,
      revision: event.revision,
      name: data.name,
      slug: data.slug,
      createdAt: data.createdAt,
      limits: DEFAULT_LIMITS,
    };
  },
});
