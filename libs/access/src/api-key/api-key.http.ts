// HTTP: API key management (scope admin). Secrets are shown once, in the creation response only.
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query as QueryParams } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';

import {
  ApiError,
  Auth,
  type AuthContext,
  type ListResponse,
  paginationQuery,
  ReadYourWrites,
  RequireScope,
  SCOPES,
  toListResponse,
  ZodPipe,
} from '@app/platform';

import { type ApiKeyView, CreateApiKeyCommand, GetApiKeyQuery, ListApiKeysQuery, RevokeApiKeyCommand } from './api-key.handlers';

export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  /** Blank (or absent) means full access, as in the portal. */
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).optional(),
});

export const apiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  status: z.enum(['active', 'revoked']),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});

export const createdApiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  status: z.literal('active'),
  createdAt: z.string(),
  secret: z.string(),
});

export const apiKeyIdParams = z.object({ id: z.string().min(1).max(64) });

@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Get()
  @RequireScope('admin')
  async list(
    @Auth() auth: AuthContext,
    @QueryParams(new ZodPipe(paginationQuery, 'query')) query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<ApiKeyView>> {
    const page = await this.queries.execute(new ListApiKeysQuery(auth.workspaceId, query.limit, query.cursor));
    return toListResponse(page, (k) => k);
  }

  @Post()
  @HttpCode(201)
  @RequireScope('admin')
  async create(
    @Auth() auth: AuthContext,
    @Body(new ZodPipe(createApiKeyBody)) body: z.output<typeof createApiKeyBody>,
  ): Promise<z.output<typeof createdApiKeyResponse>> {
    const key = await this.commands.execute(new CreateApiKeyCommand(auth.workspaceId, body.name, body.scopes ?? [], auth.keyId));
    await this.readYourWrites.settle(key.position);
    return { id: key.id, name: key.name, scopes: key.scopes, status: 'active', createdAt: key.createdAt, secret: key.secret };
  }

  @Get(':id')
  @RequireScope('admin')
  async get(
    @Auth() auth: AuthContext,
    @Param(new ZodPipe(apiKeyIdParams, 'path')) params: z.output<typeof apiKeyIdParams>,
  ): Promise<ApiKeyView> {
    const key = await this.queries.execute(new GetApiKeyQuery(auth.workspaceId, params.id));
    if (!key) throw ApiError.notFound('API key', params.id);
    return key;
  }

  /** Revokes the key: it fails with 401 from the next request on, in every API process. */
  @Delete(':id')
  @RequireScope('admin')
  async revoke(
    @Auth() auth: AuthContext,
    @Param(new ZodPipe(apiKeyIdParams, 'path')) params: z.output<typeof apiKeyIdParams>,
  ): Promise<ApiKeyView> {
    const { position } = await this.commands.execute(new RevokeApiKeyCommand(auth.workspaceId, params.id, auth.keyId));
    await this.readYourWrites.settle(position);
    const key = await this.queries.execute(new GetApiKeyQuery(auth.workspaceId, params.id));
    if (!key) throw ApiError.notFound('API key', params.id);
    return key;
  }
}
