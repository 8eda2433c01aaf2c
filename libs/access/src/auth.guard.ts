// The bearer-key guard on every route but the public ones: 401 UNAUTHORIZED for a missing or
// invalid key, 403 INSUFFICIENT_SCOPE (naming the scope) for a valid key lacking it.
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';

import { ApiError, grants, PUBLIC_ROUTE, REQUIRED_SCOPE, type Scope } from '@app/platform';

import { ApiKeyAuthenticator } from './api-key/api-key.handlers';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    if (!header) {
      throw new ApiError(401, 'UNAUTHORIZED', 'Missing API key: send the header "Authorization: Bearer <API key>"');
    }
    const secret = BEARER.exec(header)?.[1];
    const auth = secret ? await this.authenticator.authenticate(secret) : null;
    if (!auth) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid API key');

    const required = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets);
    if (required && !grants(auth.scopes, required)) {
      throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This API key lacks the required scope: ${required}`, {
        requiredScope: required,
      });
    }
    request.auth = auth;
    return true;
  }
}
