export * from './access.module';
export * from './api-key/api-key.handlers';
export * from './api-key/api-key.projection';
export * from './api-key/api-key.secret';
export * from './auth.guard';
export * from './workspace/workspace-rate-limits';
export type { LimitsChange } from './workspace/workspace.decider';
export * from './workspace/workspace.handlers';
export * from './workspace/workspace.projection';
