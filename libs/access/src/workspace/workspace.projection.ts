// Read model of workspaces: lookup by id and by slug (the CLI addresses workspaces by slug).
import { documentProjection, type StreamDoc } from '@app/platform';

import { workspaceCreated } from './workspace.events';

export interface WorkspaceDoc extends StreamDoc {
  name: string;
  slug: string;
  createdAt: string;
}

export const WORKSPACES = {
  name: 'workspaces',
  indexes: [{ name: 'by_slug', fields: [['slug', 1]], unique: true }],
} as const;

export const workspaceProjection = documentProjection<WorkspaceDoc>({
  name: 'workspaces',
  version: 1,
  collection: WORKSPACES,
  eventTypes: ['workspace.created'],
  evolve(_doc, event) {
    const data = workspaceCreated.parse(event.data);
    return { id: data.workspaceId, revision: event.revision, name: data.name, slug: data.slug, createdAt: data.createdAt };
  },
});
