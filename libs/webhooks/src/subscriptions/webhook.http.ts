// HTTP: webhook subscriptions (CRUD, secret rotation), their deliveries, replay and test.
// The signing secret appears in two answers only — creation and rotation — and is never listed.
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query as QueryParams } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';

import {
  ApiError,
  ApiOperation,
  Auth,
  type AuthContext,
  Idempotent,
  isoInstant,
  type ListResponse,
  listResponseSchema,
  paginationQuery,
  ReadYourWrites,
  RequireScope,
  toListResponse,
} from '@app/platform';

import { type DeliveryDoc } from '../delivery/delivery.projection';
import {
  GetWebhookDeliveryQuery,
  ListWebhookDeliveriesQuery,
  ReplayWebhookEventsCommand,
  TestWebhookCommand,
} from '../delivery/delivery.handlers';
import { MAX_REPLAY, type ReplayResult, type TestResult } from '../delivery/delivery.service';
import { PUBLIC_EVENT_TYPES } from '../events/event-catalogue';
import { publicEventResponse } from '../events/events.schemas';
import {
  CreateWebhookCommand,
  DeleteWebhookCommand,
  GetWebhookQuery,
  ListWebhooksQuery,
  RotateWebhookSecretCommand,
  UpdateWebhookCommand,
  type WebhookView,
} from './webhook.handlers';

const eventType = z.string().refine((t) => PUBLIC_EVENT_TYPES.has(t), { message: 'Unknown event type: see GET /api/v1/event-types' });
const eventTypes = z.array(eventType).min(1).max(PUBLIC_EVENT_TYPES.size * 2);
const url = z.string().trim().min(1).max(2048).meta({ description: 'The receiver: an https URL resolving to public addresses only.' });
const description = z.string().trim().max(500);

export const createWebhookBody = z
  .strictObject({
    url,
    events: eventTypes.meta({ description: 'Event types to deliver (see `GET /api/v1/event-types`).' }),
    description: description.optional().meta({ description: 'What the endpoint is for.' }),
  })
  .meta({ id: 'CreateWebhook' });

export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: eventTypes.optional(),
    description: description.nullable().optional(),
    enabled: z.boolean().optional().meta({
      description: 'false stops deliveries; true resumes them, and the answer\'s `missedWhileDisabled` is the range to replay.',
    }),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one of url, events, description, enabled' })
  .meta({ id: 'UpdateWebhook' });

export const webhookResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Webhook id (`wh_…`).' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z.enum(['manual', 'gone', 'failing']).nullable().meta({
      description: '`manual` (PATCH), `gone` (the endpoint answered 410) or `failing` (every attempt failed for 24 h).',
    }),
    disabledDetail: z.string().nullable(),
    disabledAt: z.string().nullable().meta({ format: 'date-time' }),
    failingSince: z.string().nullable().meta({ description: 'Since when every attempt has failed; null once one succeeds.', format: 'date-time' }),
    missedWhileDisabled: z
      .strictObject({ from: z.string().meta({ format: 'date-time' }), to: z.string().meta({ format: 'date-time' }) })
      .nullable()
      .meta({ description: 'After a re-enable: the period it was off. `POST /webhooks/:id/replay` with this `{from, to}` delivers what was missed.' }),
    secretCreatedAt: z.string().meta({ format: 'date-time' }),
    previousSecretsExpireAt: z.string().nullable().meta({
      description: 'After a rotation: until then the previous secret signs too (both signatures are sent).',
      format: 'date-time',
    }),
    createdAt: z.string().meta({ format: 'date-time' }),
    updatedAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Webhook', description: 'A webhook subscription; its secret is never shown again after creation or rotation.' });

const secretField = z.string().meta({ description: 'The signing secret (`whsec_…`): shown this once only, store it now.' });
export const createdWebhookResponse = webhookResponse.extend({ secret: secretField }).meta({ id: 'CreatedWebhook' });
export const rotatedWebhookResponse = webhookResponse.extend({ secret: secretField }).meta({ id: 'RotatedWebhook' });
export const webhookListResponse = listResponseSchema(webhookResponse).meta({ id: 'WebhookList' });
export const deletedWebhookResponse = z.strictObject({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedWebhook' });

const attemptResponse = z.strictObject({
  attempt: z.number().int().nullable().meta({ description: '1-based within its cycle; null when no request was sent (the webhook was off).' }),
  outcome: z.enum(['succeeded', 'failed']),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseBody: z.string().meta({ description: 'The first 4 KB of the receiver\'s answer.' }),
  attemptedAt: z.string().meta({ format: 'date-time' }),
});

export const deliveryResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Delivery id (`whd_…`): one per webhook and event.' }),
    webhookId: z.string(),
    eventId: z.string().meta({ description: 'The event delivered (`evt_…`).' }),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attemptCount: z.number().int().meta({ description: 'Attempts in the current cycle (a replay starts a new one).' }),
    attempts: z.array(attemptResponse).meta({ description: 'Every attempt, oldest first (the last 25).' }),
    nextAttemptAt: z.string().nullable().meta({ format: 'date-time' }),
    failureReason: z.enum(['exhausted', 'gone', 'webhook_disabled', 'webhook_deleted']).nullable(),
    replays: z.number().int(),
    createdAt: z.string().meta({ format: 'date-time' }),
    updatedAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryDetailResponse = deliveryResponse
  .extend({ payload: publicEventResponse.nullable().meta({ description: 'The envelope delivered, as read from the log.' }) })
  .meta({ id: 'WebhookDeliveryDetail' });
export const deliveryListResponse = listResponseSchema(deliveryResponse).meta({ id: 'WebhookDeliveryList' });

export const listDeliveriesQuery = paginationQuery.extend({
  eventType: eventType.optional().meta({ description: 'Only deliveries of this event type.' }),
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  from: isoInstant.optional().meta({ description: 'Scheduled at or after this instant.' }),
  to: isoInstant.optional().meta({ description: 'Scheduled before this instant.' }),
});

export const replayBody = z
  .strictObject({
    eventIds: z.array(z.string().regex(/^evt_[0-9a-f]{32}$/, 'an event id, evt_ and 32 hex digits')).min(1).max(MAX_REPLAY).optional(),
    types: z.array(eventType).min(1).optional().meta({ description: 'With from/to; default: every type the webhook subscribes to.' }),
    from: isoInstant.optional().meta({ description: 'Events created at or after this instant.' }),
    to: isoInstant.optional().meta({ description: 'Events created before this instant.' }),
  })
  .superRefine((b, ctx) => {
    const range = b.types !== undefined || b.from !== undefined || b.to !== undefined;
    if (b.eventIds && range) ctx.addIssue({ code: 'custom', path: ['eventIds'], message: 'send either eventIds or a range (types, from, to), not both' });
    else if (!b.eventIds && !b.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'send eventIds, or a range with at least from' });
  })
  .meta({ id: 'ReplayWebhookEvents' });

export const replayResponse = z
  .strictObject({
    scheduled: z.number().int().meta({ description: 'Deliveries scheduled now, oldest event first.' }),
    eventIds: z.array(z.string()),
    skipped: z.array(z.strictObject({ eventId: z.string(), reason: z.enum(['not_found', 'not_subscribed', 'already_pending']) })),
    hasMore: z.boolean().meta({ description: `A range matched more than ${MAX_REPLAY} events: replay again from the last one's time.` }),
  })
  .meta({ id: 'WebhookReplay' });

export const testResponse = z
  .strictObject({
    status: z.number().int().nullable().meta({ description: 'The receiver\'s HTTP status; null when it did not answer.' }),
    body: z.string().meta({ description: 'The first 4 KB of its answer.' }),
    ok: z.boolean(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    eventId: z.string().meta({ description: 'The id of the `webhook.test` event sent.' }),
  })
  .meta({ id: 'WebhookTestResult' });

export const webhookIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Webhook id (`wh_…`).', examples: ['wh_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});
export const deliveryIdParams = webhookIdParams.extend({
  deliveryId: z.string().min(1).max(64).meta({ description: 'Delivery id (`whd_…`).', examples: ['whd_3f2a9c0d4e5b6a7f8e9d0c1b2a'] }),
});

const webhookExample: WebhookView = {
  id: 'wh_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  url: 'https://hooks.example.com/collectibles',
  events: ['buyer_request.matched', 'trade.completed'],
  description: 'order desk',
  status: 'enabled',
  disabledReason: null,
  disabledDetail: null,
  disabledAt: null,
  failingSince: null,
  missedWhileDisabled: null,
  secretCreatedAt: '2025-11-22T15:04:05.000Z',
  previousSecretsExpireAt: null,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8tVbCeC0hfk=';

const deliveryExample: z.output<typeof deliveryResponse> = {
  id: 'whd_3f2a9c0d4e5b6a7f8e9d0c1b2a',
  webhookId: webhookExample.id,
  eventId: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60718',
  eventType: 'buyer_request.matched',
  status: 'succeeded',
  attemptCount: 2,
  attempts: [
    { attempt: 1, outcome: 'failed', statusCode: 503, durationMs: 41, error: null, responseBody: 'busy', attemptedAt: '2025-11-22T15:04:05.120Z' },
    { attempt: 2, outcome: 'succeeded', statusCode: 200, durationMs: 12, error: null, responseBody: 'ok', attemptedAt: '2025-11-22T15:05:05.150Z' },
  ],
  nextAttemptAt: null,
  failureReason: null,
  replays: 0,
  createdAt: '2025-11-22T15:04:05.100Z',
  updatedAt: '2025-11-22T15:05:05.150Z',
};

const TAGS = ['Webhooks'];

function toDeliveryResponse(doc: DeliveryDoc): z.output<typeof deliveryResponse> {
  return {
    id: doc.id,
    webhookId: doc.webhookId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: doc.status,
    attemptCount: doc.attemptCount,
    attempts: doc.attempts,
    nextAttemptAt: doc.nextAttemptAt,
    failureReason: doc.failureReason,
    replays: doc.replays,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:webhooks')
  @Idempotent({ sensitive: true })
  @ApiOperation({
    operationId: 'createWebhook',
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
  ): Promise<z.output<typeof createdWebhookResponse>> {
    const { value, position } = await this.commands.execute(
      new CreateWebhookCommand(auth.workspaceId, body.url, body.events, body.description ?? null, auth.keyId),
    );
    await this.readYourWrites.settle(position);
    return { ...(await this.find(auth, value.id)), secret: value.secret };
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
    summary: 'Read one webhook',
    tags: TAGS,
    params: webhookIdParams,
    responses: { 200: { description: 'The webhook', schema: webhookResponse, example: webhookExample } },
  })
  async get(@Auth() auth: AuthContext, @Param() params: z.output<typeof webhookIdParams>): Promise<WebhookView> {
    return this.find(auth, params.id);
  }

  @Patch(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({
    operationId: 'updateWebhook',
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
  ): Promise<WebhookView> {
    const { position } = await this.commands.execute(new UpdateWebhookCommand(auth.workspaceId, params.id, body, auth.keyId));
    if (position !== null) await this.readYourWrites.settle(position);
    return this.find(auth, params.id);
  }

  @Delete(':id')
  @RequireScope('write:webhooks')
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Nothing more is delivered to it; its pending deliveries end as failed (`webhook_deleted`).',
    tags: TAGS,
    params: webhookIdParams,
    responses: { 200: { description: 'Deleted', schema: deletedWebhookResponse, example: { id: webhookExample.id, deleted: true } } },
  })
  async remove(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof webhookIdParams>,
  ): Promise<z.output<typeof deletedWebhookResponse>> {
    const { position } = await this.commands.execute(new DeleteWebhookCommand(auth.workspaceId, params.id, auth.keyId));
    await this.readYourWrites.settle(position);
    return { id: params.id, deleted: true };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScope('write:webhooks')
  @Idempotent({ sensitive: true })
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
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
  ): Promise<z.output<typeof rotatedWebhookResponse>> {
    const { value, position } = await this.commands.execute(new RotateWebhookSecretCommand(auth.workspaceId, params.id, auth.keyId));
    await this.readYourWrites.settle(position);
    return { ...(await this.find(auth, params.id)), secret: value.secret };
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('write:webhooks')
  @Idempotent()
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a signed test event now',
    description: 'POSTs a `webhook.test` event, signed like every delivery, and answers with the receiver\'s status and body.',
    tags: TAGS,
    params: webhookIdParams,
    responses: {
      200: {
        description: 'What the receiver answered',
        schema: testResponse,
        example: { status: 200, body: 'ok', ok: true, durationMs: 38, error: null, eventId: 'evt_019ab3c4d5e67f80a1b2c3d4e5f60719' },
      },
    },
  })
  async test(@Auth() auth: AuthContext, @Param() params: z.output<typeof webhookIdParams>): Promise<TestResult> {
    return this.commands.execute(new TestWebhookCommand(auth.workspaceId, params.id));
  }

  @Post(':id/replay')
  @HttpCode(202)
  @RequireScope('write:webhooks')
  @Idempotent()
  @ApiOperation({
    operationId: 'replayWebhookEvents',
    summary: 'Deliver events again, from the log',
    description:
      'Re-delivers the chosen events — by id, or by types and a date range — with their original `evt_` id and payload. ' +
      `At most ${MAX_REPLAY} per request, oldest first.`,
    tags: TAGS,
    params: webhookIdParams,
    body: replayBody,
    bodyExample: { from: '2025-11-22T18:00:00.000Z', to: '2025-11-23T09:00:00.000Z' },
    errors: ['INVALID_TRANSITION'],
    responses: {
      202: {
        description: 'Scheduled',
        schema: replayResponse,
        example: { scheduled: 1, eventIds: [deliveryExample.eventId], skipped: [], hasMore: false },
      },
    },
  })
  async replay(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof webhookIdParams>,
    @Body() body: z.output<typeof replayBody>,
  ): Promise<ReplayResult> {
    const selection = body.eventIds ? { eventIds: body.eventIds } : { types: body.types, from: body.from as string, to: body.to };
    return this.commands.execute(new ReplayWebhookEventsCommand(auth.workspaceId, params.id, selection));
  }

  @Get(':id/deliveries')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's deliveries and their attempts, newest first",
    description: 'Filter by event type, status and the date range the delivery was scheduled in.',
    tags: TAGS,
    params: webhookIdParams,
    query: listDeliveriesQuery,
    responses: { 200: { description: 'A page of deliveries', schema: deliveryListResponse, example: { data: [deliveryExample], nextCursor: null } } },
  })
  async listDeliveries(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof webhookIdParams>,
    @QueryParams() query: z.output<typeof listDeliveriesQuery>,
  ): Promise<ListResponse<z.output<typeof deliveryResponse>>> {
    const page = await this.queries.execute(new ListWebhookDeliveriesQuery(auth.workspaceId, params.id, query));
    return toListResponse(page, toDeliveryResponse);
  }

  @Get(':id/deliveries/:deliveryId')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'One delivery, with the payload delivered',
    tags: TAGS,
    params: deliveryIdParams,
    responses: { 200: { description: 'The delivery', schema: deliveryDetailResponse, example: { ...deliveryExample, payload: null } } },
  })
  async getDelivery(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof deliveryIdParams>,
  ): Promise<z.output<typeof deliveryDetailResponse>> {
    const { delivery, payload } = await this.queries.execute(new GetWebhookDeliveryQuery(auth.workspaceId, params.id, params.deliveryId));
    return { ...toDeliveryResponse(delivery), payload };
  }

  private async find(auth: AuthContext, id: string): Promise<WebhookView> {
    const webhook = await this.queries.execute(new GetWebhookQuery(auth.workspaceId, id));
    if (!webhook) throw ApiError.notFound('webhook', id);
    return webhook;
  }
}
