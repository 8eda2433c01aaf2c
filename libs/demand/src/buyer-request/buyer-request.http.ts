// HTTP: POST/GET /api/v1/buyer-requests and GET /api/v1/buyer-requests/:id.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

import {
  ApiError,
  Auth,
  type AuthContext,
  currencyCode,
  fromMinor,
  type ListResponse,
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

export const createBuyerRequestBody = z.strictObject({
  cardName: z.string().trim().min(1).max(200),
  setName: z.string().trim().min(1).max(200),
  condition: z.string().trim().min(1).max(60),
  maxPrice: moneyAmount,
  currency: currencyCode.optional(),
  source: z.string().trim().min(1).max(100).optional(),
});

export interface BuyerRequestResponse {
  id: string;
  cardName: string;
  setName: string;
  condition: string;
  maxPrice: number;
  currency: string;
  source: string | null;
  status: string;
  matchCount: number;
  createdAt: string;
  updatedAt: string;
}

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
  async create(
    @Auth() auth: AuthContext,
    @Body(new ZodPipe(createBuyerRequestBody)) body: z.output<typeof createBuyerRequestBody>,
    @Req() request: FastifyRequest,
  ): Promise<{ id: string; matchCount: number }> {
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
  async list(
    @Auth() auth: AuthContext,
    @QueryParams(new ZodPipe(paginationQuery, 'query')) query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<BuyerRequestResponse>> {
    const page = await this.queries.execute(new ListBuyerRequestsQuery(auth.workspaceId, query.limit, query.cursor));
    return toListResponse(page, toBuyerRequestResponse);
  }

  @Get(':id')
  @RequireScope('read:requests')
  async get(@Auth() auth: AuthContext, @Param('id') id: string): Promise<BuyerRequestResponse> {
    const doc = await this.queries.execute(new GetBuyerRequestQuery(auth.workspaceId, id));
    if (!doc) throw ApiError.notFound('buyer request', id);
    return toBuyerRequestResponse(doc);
  }
}
