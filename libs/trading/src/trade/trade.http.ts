// HTTP: /api/v1/trades — open a trade (from a match, an accepted offer or an item), list, read
// (with the timeline from the log) and move it through its escrow-like states.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, IfMatch, type ListResponse, RequireScope, setETag, toListResponse, toMinor } from '@app/platform';

import { CreateTradeCommand, MoveTradeCommand } from './trade.handlers';
import { AnswerTradeQuery, GetTradeQuery, ListTradesQuery } from './trade.queries';
import {
  createTradeBody,
  listTradesQuery,
  tradeExample,
  tradeIdParams,
  tradeListResponse,
  tradeResponse,
  type TradeResponse,
  transitionTradeBody,
} from './trade.schemas';

const TAGS = ['Trades'];

const STATE_MACHINE =
  'States: `initiated` → `paid` → `shipped` → `delivered` → `completed` → `settled` (the seller is paid out). ' +
  '`cancelled` from `initiated` or `paid` (after payment the buyer is owed a refund: `refundDue`). ' +
  '`disputed` (with a `reason`) from `shipped` or `delivered`, resolved to `cancelled` (refund) or `completed` (release). ' +
  'Money is released only at `settled`, only from `completed`: after the buyer confirmed delivery, a dispute released it, ' +
  'or the dispute window (`TRADE_DISPUTE_WINDOW_SECONDS`, default 3 days) passed after `delivered` — then a durable timer completes the trade. ' +
  'Opening a trade reserves its units; `cancelled` releases them, `completed` sells them.';

@Controller('api/v1/trades')
export class TradesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'createTrade',
    versioned: 'etag',
    summary: 'Open a trade',
    description:
      'From a `matchId` (the item of the match, for its buyer request), from an `inventoryItemId` (and optionally the ' +
      '`buyerRequestId` it answers), or from an accepted `offerId` (answers `200` with the trade its acceptance opened). ' +
      'Reserves `quantity` units of the item: `409 INSUFFICIENT_QUANTITY` when fewer are available. ' +
      `The amount defaults to the item's price × quantity, in the item's currency. ${STATE_MACHINE}`,
    tags: TAGS,
    body: createTradeBody,
    bodyExample: { inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5', buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', quantity: 1 },
    errors: ['NOT_FOUND', 'INSUFFICIENT_QUANTITY', 'INVALID_TRANSITION'],
    responses: {
      201: { description: 'Opened; readable at once', schema: tradeResponse, example: { ...tradeExample, status: 'initiated', allowedTransitions: ['paid', 'cancelled'], timeline: undefined } },
      200: { description: 'The trade an accepted offer opened', schema: tradeResponse, example: { ...tradeExample, timeline: undefined } },
    },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createTradeBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TradeResponse> {
    const { trade, created } = await this.commands.execute(
      new CreateTradeCommand(
        auth.workspaceId,
        auth.keyId,
        {
          matchId: body.matchId,
          offerId: body.offerId,
          inventoryItemId: body.inventoryItemId,
          buyerRequestId: body.buyerRequestId,
          amountMinor: body.amount === undefined ? undefined : toMinor(body.amount),
          currency: body.currency,
          quantity: body.quantity,
        },
        String(request.id),
      ),
    );
    if (!created) void reply.status(200);
    setETag(reply, trade.revision);
    return this.queries.execute(new AnswerTradeQuery(auth.workspaceId, trade));
  }

  @Get()
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listTrades',
    summary: 'List trades, newest first',
    tags: TAGS,
    query: listTradesQuery,
    responses: { 200: { description: 'A page of trades', schema: tradeListResponse, example: { data: [{ ...tradeExample, timeline: undefined }], nextCursor: null } } },
  })
  async list(@Auth() auth: AuthContext, @QueryParams() query: z.output<typeof listTradesQuery>): Promise<ListResponse<TradeResponse>> {
    const { limit, cursor, ...filters } = query;
    return toListResponse(await this.queries.execute(new ListTradesQuery(auth.workspaceId, filters, limit, cursor)), (t) => t);
  }

  @Get(':id')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'getTrade',
    versioned: 'etag',
    summary: 'Get a trade, with its allowed transitions and its timeline',
    description: STATE_MACHINE,
    tags: TAGS,
    params: tradeIdParams,
    responses: { 200: { description: 'The trade', schema: tradeResponse, example: tradeExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof tradeIdParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TradeResponse> {
    const { trade, revision } = await this.queries.execute(new GetTradeQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return trade;
  }

  @Post(':id/transitions')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'transitionTrade',
    versioned: 'if-match',
    summary: 'Move a trade to its next status',
    description:
      `${STATE_MACHINE} A move the status does not allow is \`409 INVALID_TRANSITION\` with \`details: {from, to, allowed}\`; ` +
      'moving to the status the trade is in already changes nothing (`200`, the trade as it is). Of concurrent moves, one wins; ' +
      'the others see the trade moved and are judged from there.',
    tags: TAGS,
    params: tradeIdParams,
    body: transitionTradeBody,
    bodyExample: { to: 'paid', reference: 'pi_3Q…' },
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The trade after the move', schema: tradeResponse, example: tradeExample } },
  })
  async transition(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof tradeIdParams>,
    @Body() body: z.output<typeof transitionTradeBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TradeResponse> {
    const trade = await this.commands.execute(new MoveTradeCommand(auth.workspaceId, auth.keyId, params.id, body, String(request.id), ifMatch));
    setETag(reply, trade.revision);
    return this.queries.execute(new AnswerTradeQuery(auth.workspaceId, trade));
  }
}
