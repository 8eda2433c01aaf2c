// Scopes (from the spec) and the route metadata that says which one a route needs.
import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export const SCOPES = [
  'read:requests',
  'write:requests',
  'read:inventory',
  'write:inventory',
  'read:trades',
  'write:trades',
  'read:webhooks',
  'write:webhooks',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether a key's scopes grant `required`: `admin` grants everything, and `write:x` also grants
 * `read:x` (a key that may change a resource may read it, as with Stripe's restricted keys).
 */
export function grants(keyScopes: readonly string[], required: Scope): boolean {
  if (keyScopes.includes('admin') || keyScopes.includes(required)) return true;
  return required.startsWith('read:') && keyScopes.includes(`write:${required.slice('read:'.length)}`);
}

export const REQUIRED_SCOPE = 'requiredScope';
export const REQUIRED_SCOPES = 'requiredScopes';
export const PUBLIC_ROUTE = 'publicRoute';

/**
 * The scopes a route needs, all of them (a route that summarizes several resources needs the read
 * scope of each); routes without any (and not public) need any valid key. The first is the one
 * `x-required-scope` names; `x-required-scopes` lists them all.
 */
export const RequireScope = (scope: Scope, ...more: Scope[]) =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), SetMetadata(REQUIRED_SCOPES, [scope, ...more]));

/** The first of `required` that `keyScopes` does not grant, or undefined when they grant them all. */
export function missingScope(keyScopes: readonly string[], required: readonly Scope[]): Scope | undefined {
  return required.find((scope) => !grants(keyScopes, scope));
}
/** A route anyone may call without an API key. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** Who is calling: set on the request by the auth guard. */
export interface AuthContext {
  workspaceId: string;
  /** The API key's id; for a portal session, its user's id (`usr_…`): the actor events record. */
  keyId: string;
  scopes: readonly string[];
  /** How the caller signed in: an API key (the default) or a portal session cookie. */
  via?: 'key' | 'session';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<FastifyRequest>().auth;
  if (!auth) throw new Error('Auth() used on a route without authentication');
  return auth;
});
