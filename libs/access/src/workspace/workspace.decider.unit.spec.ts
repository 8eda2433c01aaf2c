import { deciderSpec } from '@app/testing/support/decider-spec';

import { workspaceDecider } from './workspace.decider';

const spec = deciderSpec(workspaceDecider);
const now = new Date('2026-03-01T10:00:00.000Z');

describe('workspace decider', () => {
  it('claims a free slug', () => {
    spec
      .given([])
      .when({ type: 'ClaimSlug', slug: 'acme', workspaceId: 'ws_1' })
      .then([{ type: 'workspace_slug.claimed', data: { slug: 'acme', workspaceId: 'ws_1' } }]);
  });

  it('refuses a slug that is already claimed', () => {
    spec
      .given([{ type: 'workspace_slug.claimed', data: { slug: 'acme', workspaceId: 'ws_1' } }])
      .when({ type: 'ClaimSlug', slug: 'acme', workspaceId: 'ws_2' })
      .thenThrows('CONFLICT', 'already taken');
  });

  it('creates a workspace once', () => {
    spec
      .given([])
      .when({ type: 'CreateWorkspace', workspaceId: 'ws_1', name: 'Acme Cards', slug: 'acme', now })
      .then([
        {
          type: 'workspace.created',
          data: { workspaceId: 'ws_1', name: 'Acme Cards', slug: 'acme', createdAt: now.toISOString() },
        },
      ]);
  });

  it('does not create the same workspace twice', () => {
    spec
      .given([{ type: 'workspace.created', data: { workspaceId: 'ws_1', name: 'A', slug: 'a', createdAt: now.toISOString() } }])
      .when({ type: 'CreateWorkspace', workspaceId: 'ws_1', name: 'A', slug: 'a', now })
      .thenThrows('CONFLICT');
  });

  describe('rate limits', () => {
    const created = {
      type: 'workspace.created' as const,
      data: { workspaceId: 'ws_1', name: 'Acme Cards', slug: 'acme', createdAt: now.toISOString() },
    };
    const limitsSet = (perMinute: number | null, perSecond: number | null) => ({
      type: 'workspace.limits_set' as const,
      data: { workspaceId: 'ws_1', perMinute, perSecond, setAt: now.toISOString() },
    });

    it('sets both limits of a workspace', () => {
      spec
        .given([created])
        .when({ type: 'SetWorkspaceLimits', workspaceId: 'ws_1', limits: { perMinute: 600, perSecond: 50 }, now })
        .then([limitsSet(600, 50)]);
    });

    it('keeps the limit a command leaves out, and records the full result', () => {
      spec
        .given([created, limitsSet(600, 50)])
        .when({ type: 'SetWorkspaceLimits', workspaceId: 'ws_1', limits: { perSecond: 10 }, now })
        .then([limitsSet(600, 10)]);
    });

    it('returns a limit to the server default with null', () => {
      spec
        .given([created, limitsSet(600, 50)])
        .when({ type: 'SetWorkspaceLimits', workspaceId: 'ws_1', limits: { perMinute: null }, now })
        .then([limitsSet(null, 50)]);
    });

    it.each([
      [{ perMinute: 600, perSecond: 50 }, [created, limitsSet(600, 50)]],
      [{}, [created, limitsSet(600, 50)]],
      [{ perMinute: null, perSecond: null }, [created]],
    ])('records nothing when %j changes nothing', (limits, given) => {
      spec.given(given).when({ type: 'SetWorkspaceLimits', workspaceId: 'ws_1', limits, now }).then([]);
    });

    it.each([[{ perMinute: 0 }], [{ perSecond: -5 }], [{ perSecond: 2.5 }], [{ perMinute: 1_000_000_001 }]])(
      'refuses %j',
      (limits) => {
        spec.given([created]).when({ type: 'SetWorkspaceLimits', workspaceId: 'ws_1', limits, now }).thenThrows('VALIDATION_FAILED');
      },
    );

    it('answers NOT_FOUND for a workspace that does not exist', () => {
      spec
        .given([])
        .when({ type: 'SetWorkspaceLimits', workspaceId: 'ws_1', limits: { perMinute: 600 }, now })
        .thenThrows('NOT_FOUND', 'ws_1');
    });
  });
});
