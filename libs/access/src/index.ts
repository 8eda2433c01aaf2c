// @app/access — the access context's contract: workspaces and API keys, and the guard that
// authenticates every request. Everything else in this library is its own business.

export { AccessModule, API_KEY_GUARD_PROVIDER } from './access.module';

// Commands the composition roots send (the CLI): create a workspace, set its limits, create a key.
export { type CreatedWorkspace, CreateWorkspaceCommand, SetWorkspaceLimitsCommand } from './workspace/workspace.handlers';
export type { LimitsChange } from './workspace/workspace.decider';
export { type CreatedApiKey, CreateApiKeyCommand } from './api-key/api-key.handlers';

// Read-only services: workspaces by slug or id, and a workspace's rate limits in effect.
export { WorkspaceDirectory } from './workspace/workspace.queries';
export { WorkspaceRateLimits } from './workspace/workspace-rate-limits';
