// @app/access — the access context's contract: workspaces and API keys, and the guard that
// authenticates every request. Everything else in this library is its own business.

export { AccessModule, API_KEY_GUARD_PROVIDER } from './access.module';

// Commands the composition roots send (the CLI): create a workspace, set its limits, create a key.
export { type CreatedWorkspace, CreateWorkspaceCommand, SetWorkspaceLimitsCommand } from './workspace/workspace.handlers';
export type { LimitsChange } from './workspace/workspace.decider';
export { type CreatedApiKey, CreateApiKeyCommand } from './api-key/api-key.handlers';

// The web portal's people: created by the CLI (the workspace's owner), signed in by password or a
// one-time link, a session cookie the guard accepts in place of a key (changes need its CSRF token).
export {
  ChangePasswordCommand,
  type CreatedUser,
  CreateUserCommand,
  IssueSignInLinkCommand,
  LINK_MS,
  type PasswordSet,
  SESSION_MS,
  SetPasswordCommand,
  type SignInCredentials,
  SignInCommand,
  SignInRefusedError,
  SignOutCommand,
  type StartedSession,
} from './user/user.handlers';
export { cookieValue, type PortalSession, PortalSessions, SESSION_COOKIE } from './user/portal-sessions';
export { PASSWORD_MAX, PASSWORD_MIN } from './user/user.secrets';

// Read-only services: workspaces by slug or id, and a workspace's rate limits in effect.
export { WorkspaceDirectory } from './workspace/workspace.queries';
export { WorkspaceRateLimits } from './workspace/workspace-rate-limits';
