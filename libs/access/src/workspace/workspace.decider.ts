// Workspaces: created once; their slug is claimed once, in a stream of its own; their own request
// rate limits set (or reset to the server's defaults) any time.
import { type Decider, DomainError } from '@app/platform/domain';

import type { WorkspaceEvent, WorkspaceLimits } from './workspace.events';

/** A limit to change: a number sets it, null returns it to the server's default, absent keeps it. */
export type LimitsChange = { [K in keyof WorkspaceLimits]?: WorkspaceLimits[K] };

export type WorkspaceCommand =
  | { type: 'ClaimSlug'; slug: string; workspaceId: string }
  | { type: 'CreateWorkspace'; workspaceId: string; name: string; slug: string; now: Date }
  | { type: 'SetWorkspaceLimits'; workspaceId: string; limits: LimitsChange; now: Date };

export type WorkspaceState =
  | { status: 'none' }
  | { status: 'slug_claimed'; slug: string; workspaceId: string }
  | { status: 'active'; workspaceId: string; name: string; slug: string; limits: WorkspaceLimits };

export const DEFAULT_LIMITS: WorkspaceLimits = { perMinute: null, perSecond: null };

const LIMIT_FIELDS = ['perMinute', 'perSecond'] as const;

/** The highest quota a workspace may set: the ceiling of the server's own RATE_LIMIT_* settings. */
export const MAX_RATE_LIMIT = 1_000_000_000;

function checkLimits(change: LimitsChange): void {
  const issues = LIMIT_FIELDS.flatMap((field) => {
    const value = change[field];
    if (value === undefined || value === null) return [];
    return Number.isInteger(value) && value >= 1 && value <= MAX_RATE_LIMIT
      ? []
      : [{ path: field, message: `must be a whole number from 1 to ${MAX_RATE_LIMIT}` }];
  });
  if (issues.length > 0) {
    throw new DomainError('VALIDATION_FAILED', `Invalid rate limit: ${issues[0].path} ${issues[0].message}`, { issues });
  }
}

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
      case 'SetWorkspaceLimits': {
        if (state.status !== 'active' || state.workspaceId !== command.workspaceId) {
          throw new DomainError('NOT_FOUND', `No workspace with id ${command.workspaceId}`);
        }
        checkLimits(command.limits);
        const next: WorkspaceLimits = {
          perMinute: command.limits.perMinute === undefined ? state.limits.perMinute : command.limits.perMinute,
          perSecond: command.limits.perSecond === undefined ? state.limits.perSecond : command.limits.perSecond,
        };
        // Setting what is already set records nothing: the command is safe to repeat.
        if (next.perMinute === state.limits.perMinute && next.perSecond === state.limits.perSecond) return [];
        return [
          {
            type: 'workspace.limits_set',
            data: { workspaceId: command.workspaceId, ...next, setAt: command.now.toISOString() },
          },
        ];
      }
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
        return {
          status: 'active',
          workspaceId: event.data.workspaceId,
          name: event.data.name,
          slug: event.data.slug,
          limits: DEFAULT_LIMITS,
        };
      case 'workspace.limits_set':
        if (state.status !== 'active') return state;
        return { ...state, limits: { perMinute: event.data.perMinute, perSecond: event.data.perSecond } };
      default:
        return state;
    }
  },
};
