// HTTP: a webhook's deliveries under /api/v1/webhooks/:id — a signed test event, replay from the
// log, and the deliveries with their attempts. Request and response schemas live in
// delivery.schemas.ts.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, type ListResponse, RequireScope, toListResponse } from '@app/platform';

import { webhookIdParams } from '../subscriptions/webhook.schemas';
import { ReplayWebhookEventsCommand, TestWebhookCommand } from './delivery.handlers';
import { GetWebhookDeliveryQuery, ListWebhookDeliveriesQuery } from './delivery.queries';
import {
  deliveryDetailResponse,
  deliveryExample,
  deliveryIdParams,
  deliveryListResponse,
  type DeliveryResponse,
  listDeliveriesQuery,
  replayBody,
  replayResponse,
  testResponse,
  testResultExample,
  toDeliveryResponse,
} from './delivery.schemas';
import { MAX_REPLAY, type ReplayResult, type TestResult } from './delivery.service';

const TAGS = ['Webhooks'];

@Controller('api/v1/webhooks')
export class WebhookDeliveriesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

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
    responses: { 200: { description: 'What the receiver answered', schema: testResponse, example: testResultExample } },
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
  ): Promise<ListResponse<DeliveryResponse>> {
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
}
