// HTTP: POST/GET /api/v1/buyer-requests and GET /api/v1/buyer-requests/:id.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

import {
  ApiError,
  ApiOperation,
  Idempotent,
  Auth,
  type AuthContext,
  currencyCode,
  fromMinor,
  type ListResponse,
  listResponseSchema,
  moneyAmount,
  paginationQuery,
  ReadYourWrites,
  RequireScope,
  toListResponse,
  toMinor,
  ZodPipe,
} from '@app/platform';

import {
  CreateBuyerRequestCommand,
  GetBuyerRequestQuery,
  ListBuyerRequestsQuery,
} from './buyer-request.handlers';
import type { BuyerRequestDoc } from './buyer-request.projection';

export const createBuyerRequestBody = z
  .strictObject({
    cardName: z.string().trim().min(1).max(200).meta({ description: 'Name of the wanted item.' }),
    setName: z.string().trim().min(1).max(200).meta({ description: 'Set the item belongs to.' }),
    condition: z.string().trim().min(1).max(60).meta({ description: 'Grade or condition label.' }),
    maxPrice: moneyAmount.meta({ description: 'Highest price the buyer will pay: a decimal with at most 2 places.' }),
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code of `maxPrice`; default `USD`.' }),
    source: z.string().trim().min(1).max(100).optional().meta({ description: 'Where the request came from.' }),
  })
  .meta({ id: 'CreateBuyerRequest' });

export const buyerRequestIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Buyer request id (`br_…`).', examples: ['br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

export const buyerRequestResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Buyer request id (`br_…`).' }),
    cardName: z.string(),
    setName: z.string(),
    condition: z.string(),
    maxPrice: z.number().meta({ description: 'Decimal, at most 2 places, in `currency`.' }),
    currency: z.string().meta({ description: 'ISO 4217 code.' }),
    source: z.string().nullable(),
    status: z.enum(['open']),
    matchCount: z.number().int().min(0).meta({ description: 'Inventory items matched so far.' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BuyerRequest' });

export type BuyerRequestResponse = z.output<typeof buyerRequestResponse>;

export const createdBuyerRequestResponse = z
  .strictObject({
    id: z.string().meta({ description: 'The new buyer request\'s id (`br_…`).' }),
    matchCount: z.number().int().min(0).meta({ description: 'Instant matches found; greater than 0 means matches exist.' }),
  })
  .meta({ id: 'CreatedBuyerRequest' });

export const buyerRequestListResponse = listResponseSchema(buyerRequestResponse).meta({ id: 'BuyerRequestList' });

const charizard = {
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPrice: 450.5,
  currency: 'USD',
  source: 'card-show',
};

const buyerRequestExample: BuyerRequestResponse = {
  id: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3',
  ...charizard,
  status: 'open',
  matchCount: 0,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
};

const TAGS = ['Buyer requests'];

export function toBuyerRequestResponse(doc: BuyerRequestDoc): BuyerRequestResponse {
  return {
    id: doc.id,
    cardName: doc.cardName,
    setName: doc.setName,
    condition: doc.condition,
    maxPrice: fromMinor(doc.maxPriceMinor),
    currency: doc.currency,
    source: doc.source,
    status: doc.status,
    matchCount: doc.matchCount,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

@Controller('api/v1/buyer-requests')
export class BuyerRequestsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:requests')
  @Idempotent()
  @ApiOperation({
    operationId: 'createBuyerRequest',
    summary: 'Capture buyer demand',
    description: 'Creates a buyer request; it is checked against inventory at once and the answer carries the match count.',
    tags: TAGS,
    body: createBuyerRequestBody,
    bodyExample: charizard,
    responses: {
      201: {
        description: 'Created; readable at once (read-your-writes)',
        schema: createdBuyerRequestResponse,
        example: { id: buyerRequestExample.id, matchCount: 0 },
      },
    },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body(new ZodPipe(createBuyerRequestBody)) body: z.output<typeof createBuyerRequestBody>,
    @Req() request: FastifyRequest,
  ): Promise<z.output<typeof createdBuyerRequestResponse>> {
    const { id, position } = await this.commands.execute(
      new CreateBuyerRequestCommand(
        auth.workspaceId,
        auth.keyId,
        {
          cardName: body.cardName,
          setName: body.setName,
          condition: body.condition,
          maxPriceMinor: toMinor(body.maxPrice),
          currency: body.currency ?? 'USD',
          source: body.source ?? null,
        },
        String(request.id),
      ),
    );
    await this.readYourWrites.settle(position);
    return { id, matchCount: 0 };
  }

  @Get()
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'listBuyerRequests',
    summary: 'List buyer requests, newest first',
    tags: TAGS,
    query: paginationQuery,
    responses: {
      200: {
        description: 'A page of buyer requests',
        schema: buyerRequestListResponse,
        example: { data: [buyerRequestExample], nextCursor: null },
      },
    },
  })
  async list(
    @Auth() auth: AuthContext,
    @QueryParams(new ZodPipe(paginationQuery, 'query')) query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<BuyerRequestResponse>> {
    const page = await this.queries.execute(new ListBuyerRequestsQuery(auth.workspaceId, query.limit, query.cursor));
    return toListResponse(page, toBuyerRequestResponse);
  }

  @Get(':id')
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'getBuyerRequest',
    summary: 'Read one buyer request',
    tags: TAGS,
    params: buyerRequestIdParams,
    responses: { 200: { description: 'The buyer request', schema: buyerRequestResponse, example: buyerRequestExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param(new ZodPipe(buyerRequestIdParams, 'path')) params: z.output<typeof buyerRequestIdParams>,
  ): Promise<BuyerRequestResponse> {
    const doc = await this.queries.execute(new GetBuyerRequestQuery(auth.workspaceId, params.id));
    if (!doc) throw ApiError.notFound('buyer request', params.id);
    return toBuyerRequestResponse(doc);
  }
}
