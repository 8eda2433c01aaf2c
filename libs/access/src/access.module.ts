import { Module, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { ApiKeyAuthenticator } from './api-key/api-key.authenticator';
import { API_KEY_COMMAND_HANDLERS } from './api-key/api-key.handlers';
import { API_KEY_QUERY_HANDLERS } from './api-key/api-key.queries';
import { ApiKeysController } from './api-key/api-key.http';
import { ApiKeyUsage } from './api-key/api-key.usage';
import { apiKeyProjection } from './api-key/api-key.projection';
import { ApiKeyGuard } from './auth.guard';
import { PortalSessions } from './user/portal-sessions';
import { PortalKeys, USER_COMMAND_HANDLERS } from './user/user.handlers';
import { userProjection } from './user/user.projection';
import { WorkspaceRateLimits } from './workspace/workspace-rate-limits';
import { WORKSPACE_COMMAND_HANDLERS } from './workspace/workspace.handlers';
import { workspaceProjection } from './workspace/workspace.projection';
import { WorkspaceDirectory } from './workspace/workspace.queries';

@Module({
  imports: [CqrsModule],
  controllers: [ApiKeysController],
  providers: [
    ...WORKSPACE_COMMAND_HANDLERS,
    ...API_KEY_COMMAND_HANDLERS,
    ...API_KEY_QUERY_HANDLERS,
    ...USER_COMMAND_HANDLERS,
    PortalKeys,
    PortalSessions,
    ApiKeyAuthenticator,
    ApiKeyUsage,
    WorkspaceDirectory,
    WorkspaceRateLimits,
  ],
  exports: [ApiKeyAuthenticator, WorkspaceDirectory, WorkspaceRateLimits, PortalSessions],
})
export class AccessModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(workspaceProjection, apiKeyProjection, userProjection);
  }
}

/** The guard as a global guard: added by the HTTP app only (the CLI has no routes). */
export const API_KEY_GUARD_PROVIDER = { provide: APP_GUARD, useClass: ApiKeyGuard };
