// Workspaces: created once; their slug is claimed once, in a stream of its own.
import { type Decider, DomainError } from '@app/platform';

import type { WorkspaceEvent } from './workspace.events';

export type WorkspaceCommand =
  | { type: 'ClaimSlug'; slug: string; workspaceId: string }
  | { type: 'CreateWorkspace'; workspaceId: string; name: string; slug: string; now: Date };

export type WorkspaceState =
  | { status: 'none' }
  | { status: 'slug_claimed'; slug: string; workspaceId: string }
  | { status: 'active'; workspaceId: string; name: string; slug: string };

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'ClaimSlug':
        if (state.status !== 'none') {
          throw new DomainError('CONFLICT', `The slug "${command.slug}" is already taken`, { slug: command.slug });
        }
        return [{ type: 'workspace_slug.claimed', data: { slug: command.slug, workspaceId: command.workspaceId } }];
      case 'CreateWorkspace':
        if (state.status !== 'none') {
          throw new DomainError('CONFLICT', `Workspace ${command.workspaceId} already exists`);
        }
        return [
          {
            type: 'workspace.created',
            data: {
              workspaceId: command.workspaceId,
              name: command.name,
              slug: command.slug,
              createdAt: command.now.toISOString(),
            },
          },
        ];
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'workspace_slug.claimed':
        return { status: 'slug_claimed', slug: event.data.slug, workspaceId: event.data.workspaceId };
      case 'workspace.created':
        return { status: 'active', workspaceId: event.data.workspaceId, name: event.data.name, slug: event.data.slug };
      default:
        return state;
    }
  },
};
