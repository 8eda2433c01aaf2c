// HTTP: /api/v1/holds — place a hold (its units reserved until it expires), record its deposit,
// convert it into a trade, release it; list and read holds.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, IfMatch, type ListResponse, RequireScope, setETag, toListResponse, toMinor } from '@app/platform';

import { ActOnHoldCommand, type HoldAction, PlaceHoldCommand } from './hold.handlers';
import { AnswerHoldQuery, GetHoldQuery, ListHoldsQuery } from './hold.queries';
import {
  holdDepositBody,
  holdExample,
  holdIdParams,
  holdListResponse,
  holdResponse,
  type HoldResponse,
  listHoldsQuery,
  placeHoldBody,
  releaseHoldBody,
} from './hold.schemas';

const TAGS = ['Holds'];
const LIFECYCLE =
  'A hold reserves units of an item for a buyer until `expiresAt`, with a deposit. It is `active` until it is converted ' +
  '(a trade takes over its units; a paid deposit counts toward the trade), released, or expires (a durable timer: ' +
  'its units are available again, `hold.expired`). Past `expiresAt` it can no longer be converted, even before the timer runs. ' +
  'Repeating an action that took effect is a no-op answering the hold as it is; a repeat that names another deposit `reference` ' +
  'or release `reason` than the one recorded is `409 CONFLICT` naming the field (`details`: `field`, `recorded`, `given`).';

@Controller('api/v1/holds')
export class HoldsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'placeHold',
    versioned: 'etag',
    summary: 'Place a hold',
    description: `${LIFECYCLE} Reserves \`quantity\` units: \`409 INSUFFICIENT_QUANTITY\` when fewer are available.`,
    tags: TAGS,
    body: placeHoldBody,
    bodyExample: { inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5', depositAmount: 50, expiresAt: '2030-01-01T00:00:00Z' },
    errors: ['NOT_FOUND', 'INSUFFICIENT_QUANTITY', 'INVALID_TRANSITION'],
    responses: { 201: { description: 'Placed; readable at once', schema: holdResponse, example: holdExample } },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof placeHoldBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HoldResponse> {
    const hold = await this.commands.execute(
      new PlaceHoldCommand(
        auth.workspaceId,
        auth.keyId,
        {
          inventoryItemId: body.inventoryItemId,
          buyerRequestId: body.buyerRequestId ?? null,
          quantity: body.quantity ?? 1,
          depositMinor: toMinor(body.depositAmount),
          currency: body.currency,
          expiresAt: body.expiresAt,
        },
        String(request.id),
      ),
    );
    setETag(reply, hold.revision);
    return this.queries.execute(new AnswerHoldQuery(auth.workspaceId, hold));
  }

  @Get()
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listHolds',
    summary: 'List holds, newest first',
    tags: TAGS,
    query: listHoldsQuery,
    responses: { 200: { description: 'A page of holds', schema: holdListResponse, example: { data: [holdExample], nextCursor: null } } },
  })
  async list(@Auth() auth: AuthContext, @QueryParams() query: z.output<typeof listHoldsQuery>): Promise<ListResponse<HoldResponse>> {
    const { limit, cursor, ...filters } = query;
    return toListResponse(await this.queries.execute(new ListHoldsQuery(auth.workspaceId, filters, limit, cursor)), (h) => h);
  }

  @Get(':id')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'getHold',
    versioned: 'etag',
    summary: 'Get a hold',
    description: LIFECYCLE,
    tags: TAGS,
    params: holdIdParams,
    responses: { 200: { description: 'The hold', schema: holdResponse, example: holdExample } },
  })
  async get(@Auth() auth: AuthContext, @Param() params: z.output<typeof holdIdParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<HoldResponse> {
    const { hold, revision } = await this.queries.execute(new GetHoldQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return hold;
  }

  @Post(':id/deposit')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'payHoldDeposit',
    versioned: 'if-match',
    summary: 'Record a hold\'s deposit as paid',
    description: `The body may be left out. ${LIFECYCLE}`,
    tags: TAGS,
    params: holdIdParams,
    body: holdDepositBody,
    bodyExample: { reference: 'pi_3Q…' },
    errors: ['INVALID_TRANSITION', 'CONFLICT'],
    responses: { 200: { description: 'The hold', schema: holdResponse, example: { ...holdExample, depositStatus: 'paid', depositReference: 'pi_3Q…' } } },
  })
  deposit(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof holdIdParams>,
    @Body() body: z.output<typeof holdDepositBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.act(auth, params.id, { type: 'deposit', reference: body.reference }, { request, reply, ifMatch });
  }

  @Post(':id/convert')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'convertHold',
    versioned: 'if-match',
    summary: 'Convert a hold into a trade',
    description: `Opens a trade for the held units at the hold's \`amount\` (its \`tradeId\`), the paid deposit counted toward it. No body. ${LIFECYCLE}`,
    tags: TAGS,
    params: holdIdParams,
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The converted hold', schema: holdResponse, example: { ...holdExample, status: 'converted', tradeId: 'trd_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3' } } },
  })
  convert(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof holdIdParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.act(auth, params.id, { type: 'convert' }, { request, reply, ifMatch });
  }

  @Post(':id/release')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'releaseHold',
    versioned: 'if-match',
    summary: 'Release a hold',
    description: `Its units are available again. The body may be left out. ${LIFECYCLE}`,
    tags: TAGS,
    params: holdIdParams,
    body: releaseHoldBody,
    bodyExample: { reason: 'buyer changed their mind' },
    errors: ['INVALID_TRANSITION', 'CONFLICT'],
    responses: { 200: { description: 'The released hold', schema: holdResponse, example: { ...holdExample, status: 'released', reason: 'buyer changed their mind' } } },
  })
  release(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof holdIdParams>,
    @Body() body: z.output<typeof releaseHoldBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.act(auth, params.id, { type: 'release', reason: body.reason }, { request, reply, ifMatch });
  }

  private async act(auth: AuthContext, id: string, action: HoldAction, http: { request: FastifyRequest; reply: FastifyReply; ifMatch?: number }): Promise<HoldResponse> {
    const hold = await this.commands.execute(new ActOnHoldCommand(auth.workspaceId, auth.keyId, id, action, String(http.request.id), http.ifMatch));
    setETag(http.reply, hold.revision);
    return this.queries.execute(new AnswerHoldQuery(auth.workspaceId, hold));
  }
}
