// HTTP: webhook subscriptions under /api/v1/webhooks — CRUD and secret rotation. The signing secret
// appears in two answers only — creation and rotation — and is never listed. Deliveries, replay and
// test: delivery.http.ts. Request and response schemas live in webhook.schemas.ts.
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query as QueryParams, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

import {
  ApiOperation,
  Auth,
  type AuthContext,
  Idempotent,
  IfMatch,
  type ListResponse,
  paginationQuery,
  RequireScope,
  setETag,
  toListResponse,
} from '@app/platform';

import { CreateWebhookCommand, DeleteWebhookCommand, RotateWebhookSecretCommand, UpdateWebhookCommand } from './webhook.handlers';
import { AnswerWebhookQuery, GetWebhookQuery, ListWebhooksQuery, type WebhookView } from './webhook.queries';
import {
  createdWebhookResponse,
  createWebhookBody,
  deletedWebhookResponse,
  rotatedWebhookResponse,
  secretExample,
  updateWebhookBody,
  webhookExample,
  webhookIdParams,
  webhookListResponse,
  webhookResponse,
} from './webhook.schemas';

const TAGS = ['Webhooks'];

@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:webhooks')
  @Idempotent({ sensitive: true })
  @ApiOperation({
    operationId: 'createWebhook',
    versioned: 'etag',
    summary: 'Subscribe a URL to events',
    description:
      'Every later event of the listed types is POSTed to the url, signed with the secret returned here (once). The url must be ' +
      'https and resolve only to public addresses (checked again at every delivery).',
    tags: TAGS,
    body: createWebhookBody,
    bodyExample: { url: 'https://hooks.example.com/collectibles', events: ['buyer_request.matched', 'trade.completed'], description: 'order desk' },
    errors: ['LIMIT_EXCEEDED'],
    responses: { 201: { description: 'Subscribed', schema: createdWebhookResponse, example: { ...webhookExample, secret: secretExample } } },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createWebhookBody>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof createdWebhookResponse>> {
    const { webhook, secret } = await this.commands.execute(
      new CreateWebhookCommand(auth.workspaceId, body.url, body.events, body.description ?? null, auth.keyId),
    );
    setETag(reply, webhook.revision);
    return { ...(await this.queries.execute(new AnswerWebhookQuery(webhook))), secret };
  }

  @Get()
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: "List the workspace's webhooks, newest first",
    tags: TAGS,
    query: paginationQuery,
    responses: { 200: { description: 'A page of webhooks', schema: webhookListResponse, example: { data: [webhookExample], nextCursor: null } } },
  })
  async list(
    @Auth() auth: AuthContext,
    @QueryParams() query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<WebhookView>> {
    const page = await this.queries.execute(new ListWebhooksQuery(auth.workspaceId, query.limit, query.cursor));
    return toListResponse(page, (w) => w);
  }

  @Get(':id')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'getWebhook',
    versioned: 'etag',
    summary: 'Read one webhook',
    tags: TAGS,
    params: webhookIdParams,
    responses: { 200: { description: 'The webhook', schema: webhookResponse, example: webhookExample } },
  })
  async get(@Auth() auth: AuthContext, @Param() params: z.output<typeof webhookIdParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<WebhookView> {
    const { webhook, revision } = await this.queries.execute(new GetWebhookQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return webhook;
  }

  @Patch(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({
    operationId: 'updateWebhook',
    versioned: 'if-match',
    summary: 'Change, disable or re-enable a webhook',
    description:
      'Changes url, events or description, and `enabled` turns deliveries off and on. Re-enabling answers `missedWhileDisabled`: ' +
      'replay that range to receive what was missed.',
    tags: TAGS,
    params: webhookIdParams,
    body: updateWebhookBody,
    bodyExample: { enabled: true },
    responses: {
      200: {
        description: 'The webhook after the change',
        schema: webhookResponse,
        example: { ...webhookExample, missedWhileDisabled: { from: '2025-11-22T18:00:00.000Z', to: '2025-11-23T09:00:00.000Z' } },
      },
    },
  })
  async update(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof webhookIdParams>,
    @Body() body: z.output<typeof updateWebhookBody>,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookView> {
    const webhook = await this.commands.execute(new UpdateWebhookCommand(auth.workspaceId, params.id, body, auth.keyId, ifMatch));
    setETag(reply, webhook.revision);
    return this.queries.execute(new AnswerWebhookQuery(webhook));
  }

  @Delete(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({
    operationId: 'deleteWebhook',
    versioned: 'if-match',
    summary: 'Delete a webhook',
    description: 'Nothing more is delivered to it; its pending deliveries end as failed (`webhook_deleted`).',
    tags: TAGS,
    params: webhookIdParams,
    responses: { 200: { description: 'Deleted', schema: deletedWebhookResponse, example: { id: webhookExample.id, deleted: true } } },
  })
  async remove(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof webhookIdParams>,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof deletedWebhookResponse>> {
    // The version the deletion left: its stream stays in the log.
    setETag(reply, await this.commands.execute(new DeleteWebhookCommand(auth.workspaceId, params.id, auth.keyId, ifMatch)));
    return { id: params.id, deleted: true };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScope('write:webhooks')
  @Idempotent({ sensitive: true })
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    versioned: 'if-match',
    summary: 'Rotate the signing secret',
    description:
      'Returns a new secret, once. The previous one keeps signing beside it for 24 hours: deliveries carry both signatures ' +
      '(comma separated in X-Service-Signature, space separated in webhook-signature), so receivers can switch without a gap.',
    tags: TAGS,
    params: webhookIdParams,
    responses: {
      200: {
        description: 'The new secret',
        schema: rotatedWebhookResponse,
        example: { ...webhookExample, previousSecretsExpireAt: '2025-11-23T15:04:05.000Z', secret: secretExample },
      },
    },
  })
  async rotate(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof webhookIdParams>,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof rotatedWebhookResponse>> {
    const { webhook, secret } = await this.commands.execute(new RotateWebhookSecretCommand(auth.workspaceId, params.id, auth.keyId, ifMatch));
    setETag(reply, webhook.revision);
    return { ...(await this.queries.execute(new AnswerWebhookQuery(webhook))), secret };
  }
}
