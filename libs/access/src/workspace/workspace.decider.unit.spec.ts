import { deciderSpec } from '@app/platform/domain/specification';

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
});
