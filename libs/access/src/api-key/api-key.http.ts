// HTTP: API key management (scope admin). Secrets are shown once, in the creation response only.
// Request and response schemas live in api-key.schemas.ts.
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query as QueryParams, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

import {
  ApiOperation,
  Idempotent,
  Auth,
  type AuthContext,
  IfMatch,
  type ListResponse,
  paginationQuery,
  RequireScope,
  setETag,
  toListResponse,
} from '@app/platform';

import { CreateApiKeyCommand, RevokeApiKeyCommand } from './api-key.handlers';
import { AnswerApiKeyQuery, type ApiKeyView, GetApiKeyQuery, ListApiKeysQuery } from './api-key.queries';
import {
  apiKeyExample,
  apiKeyIdParams,
  apiKeyListResponse,
  apiKeyResponse,
  createApiKeyBody,
  createdApiKeyExample,
  createdApiKeyResponse,
} from './api-key.schemas';

const TAGS = ['API keys'];

@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: "List the workspace's API keys, newest first",
    description: 'Revoked keys are listed too; secrets never are.',
    tags: TAGS,
    query: paginationQuery,
    responses: {
      200: { description: 'A page of API keys', schema: apiKeyListResponse, example: { data: [apiKeyExample], nextCursor: null } },
    },
  })
  async list(
    @Auth() auth: AuthContext,
    @QueryParams() query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<ApiKeyView>> {
    const page = await this.queries.execute(new ListApiKeysQuery(auth.workspaceId, query.limit, query.cursor));
    return toListResponse(page, (k) => k);
  }

  @Post()
  @HttpCode(201)
  @RequireScope('admin')
  // The answer holds the secret: its stored copy for Idempotency-Key replays is sealed, not in clear.
  @Idempotent({ sensitive: true })
  @ApiOperation({
    operationId: 'createApiKey',
    versioned: 'etag',
    summary: 'Create an API key',
    description:
      'The answer holds the secret, shown this once only; only its hash is stored. A retry with the same `Idempotency-Key` ' +
      'gets the same answer (kept encrypted), or `409 IDEMPOTENCY_REPLAY_UNAVAILABLE` if the server\'s `SECRETS_KEY` changed meanwhile.',
    tags: TAGS,
    errors: ['IDEMPOTENCY_REPLAY_UNAVAILABLE'],
    body: createApiKeyBody,
    bodyExample: { name: 'ci', scopes: ['read:requests', 'write:requests'] },
    responses: {
      201: {
        description: 'Created; usable at once',
        schema: createdApiKeyResponse,
        example: createdApiKeyExample,
      },
    },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createApiKeyBody>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof createdApiKeyResponse>> {
    const { revision, ...key } = await this.commands.execute(new CreateApiKeyCommand(auth.workspaceId, body.name, body.scopes ?? [], auth.keyId));
    setETag(reply, revision);
    return key;
  }

  @Get(':id')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'getApiKey',
    versioned: 'etag',
    summary: 'Read one API key',
    tags: TAGS,
    params: apiKeyIdParams,
    responses: { 200: { description: 'The API key', schema: apiKeyResponse, example: apiKeyExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof apiKeyIdParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApiKeyView> {
    const { key, revision } = await this.queries.execute(new GetApiKeyQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return key;
  }

  /** Revokes the key: it fails with 401 from the next request on, in every API process. */
  @Delete(':id')
  @RequireScope('admin')
  @ApiOperation({
    operationId: 'revokeApiKey',
    versioned: 'if-match',
    summary: 'Revoke an API key',
    description:
      'The key answers 401 from the next request on, in every API process. The key stays listed as `revoked`; ' +
      'revoking it again changes nothing and answers it as it is (`revokedAt` is the first revocation).',
    tags: TAGS,
    params: apiKeyIdParams,
    responses: {
      200: {
        description: 'The revoked key',
        schema: apiKeyResponse,
        example: { ...apiKeyExample, status: 'revoked', revokedAt: '2025-11-23T09:00:00.000Z' },
      },
    },
  })
  async revoke(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof apiKeyIdParams>,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ApiKeyView> {
    const key = await this.commands.execute(new RevokeApiKeyCommand(auth.workspaceId, params.id, auth.keyId, ifMatch));
    setETag(reply, key.revision);
    return this.queries.execute(new AnswerApiKeyQuery(key));
  }
}
