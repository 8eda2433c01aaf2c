// HTTP: /api/v1/live-sessions/:id/lots — lots put up one by one in a show (each reserves its units
// from inventory while open), and viewers' reserves on the open lot (an auction or a claim sale,
// judged in the log's order); when a lot closes (or the show ends) each winner gets a hold with a
// deposit due, or a trade, as the session is set. A lot's writes answer it as they left it, with its
// ETag; a reserve (no stream of its own) as it was placed.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, IfMatch, type ListResponse, paginationQuery, RequireScope, setETag, toListResponse, toMinor } from '@app/platform';

import { liveSessionIdParams } from '../session/live-session.schemas';
import { AddLotCommand, MoveLotCommand, PlaceReserveCommand } from './lot.handlers';
import { AnswerReserveQuery, GetLotQuery, ListLotsQuery, ListReservesQuery } from './lot.queries';
import {
  addLotBody,
  listLotsQuery,
  lotExample,
  lotListResponse,
  lotParams,
  lotResponse,
  type LotResponse,
  placeReserveBody,
  reserveExample,
  reserveListResponse,
  reserveResponse,
  type ReserveResponse,
  toLotResponse,
} from './lot.schemas';

const TAGS = ['Live selling'];
const LOT =
  'A lot puts units of an inventory item up in a session: `pending` when added, `open` (its units reserved from inventory; reserves accepted) ' +
  'while the session is live, then `closed`. With an `increment` it is an auction (each reserve beats the best by at least the increment; the best wins the lot), ' +
  'without one a claim sale (one unit per reserve at or above the starting price, first come first served; later ones waitlisted). ' +
  'When it closes, a process manager gives each winner a hold with a deposit due (or a trade, as the session is set) on the lot\'s units and releases the unsold ones (`settled`).';

@Controller('api/v1/live-sessions')
export class LotsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post(':id/lots')
  @HttpCode(201)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'addLot',
    versioned: 'etag',
    summary: 'Add a lot to a live session',
    description: `Lots may be added while the session is scheduled or live. ${LOT}`,
    tags: TAGS,
    params: liveSessionIdParams,
    body: addLotBody,
    bodyExample: { inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5', quantity: 1, startingPrice: 300, increment: 10 },
    errors: ['INVALID_TRANSITION'],
    responses: { 201: { description: 'Added (`pending`); readable at once', schema: lotResponse, example: { ...lotExample, status: 'pending', reserveCount: 0, best: null, minimumAmount: null, openedAt: null } } },
  })
  async addLot(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof liveSessionIdParams>,
    @Body() body: z.output<typeof addLotBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LotResponse> {
    const lot = await this.commands.execute(
      new AddLotCommand(
        auth.workspaceId,
        auth.keyId,
        params.id,
        { inventoryItemId: body.inventoryItemId, quantity: body.quantity ?? 1, startingPriceMinor: toMinor(body.startingPrice), incrementMinor: body.increment === undefined ? null : toMinor(body.increment) },
        String(request.id),
      ),
    );
    setETag(reply, lot.revision);
    return toLotResponse(lot);
  }

  @Get(':id/lots')
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'listLots',
    summary: 'List a live session\'s lots, in the order they were added',
    tags: TAGS,
    params: liveSessionIdParams,
    query: listLotsQuery,
    responses: { 200: { description: 'A page of lots', schema: lotListResponse, example: { data: [lotExample], nextCursor: null } } },
  })
  async lots(@Auth() auth: AuthContext, @Param() params: z.output<typeof liveSessionIdParams>, @QueryParams() query: z.output<typeof listLotsQuery>): Promise<ListResponse<LotResponse>> {
    return toListResponse(await this.queries.execute(new ListLotsQuery(auth.workspaceId, params.id, query.status, query.limit, query.cursor)), (l) => l);
  }

  @Get(':id/lots/:lotId')
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'getLot',
    versioned: 'etag',
    summary: 'Get a lot',
    description: LOT,
    tags: TAGS,
    params: lotParams,
    responses: { 200: { description: 'The lot', schema: lotResponse, example: lotExample } },
  })
  async lot(@Auth() auth: AuthContext, @Param() params: z.output<typeof lotParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<LotResponse> {
    const { answer, revision } = await this.queries.execute(new GetLotQuery(auth.workspaceId, params.id, params.lotId));
    setETag(reply, revision);
    return answer;
  }

  @Post(':id/lots/:lotId/open')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'openLot',
    versioned: 'if-match',
    summary: 'Open a lot for reserves',
    description: `No body. Only while the session is live; reserves the lot's units (\`409 INSUFFICIENT_QUANTITY\` when fewer are available). ${LOT}`,
    tags: TAGS,
    params: lotParams,
    errors: ['INVALID_TRANSITION', 'INSUFFICIENT_QUANTITY'],
    responses: { 200: { description: 'The open lot', schema: lotResponse, example: { ...lotExample, reserveCount: 0, best: null, minimumAmount: 300 } } },
  })
  open(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof lotParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LotResponse> {
    return this.moveLot(auth, params, 'open', { request, reply, ifMatch });
  }

  @Post(':id/lots/:lotId/close')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'closeLot',
    versioned: 'if-match',
    summary: 'Close a lot',
    description: `No body. Its winners are final; shortly after, each has a hold (or a trade) and \`settled\` is true. ${LOT}`,
    tags: TAGS,
    params: lotParams,
    responses: {
      200: {
        description: 'The closed lot',
        schema: lotResponse,
        example: { ...lotExample, status: 'closed', minimumAmount: null, winners: [{ reserveId: 'rsv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4', amount: 310, quantity: 1, holdId: null, tradeId: null }], unsold: 0, closedAt: '2025-11-23T20:05:00.000Z' },
      },
    },
  })
  close(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof lotParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LotResponse> {
    return this.moveLot(auth, params, 'close', { request, reply, ifMatch });
  }

  @Post(':id/lots/:lotId/reserves')
  @HttpCode(201)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'placeReserve',
    summary: 'Place a reserve on an open lot',
    description:
      'Only while the session is live and the lot open (else `409 INVALID_TRANSITION`). Judged in the log\'s order, never a clock\'s: ' +
      'an amount under the lowest acceptable one is `409 RESERVE_TOO_LOW` with the current `best` and the `minimumAmount` in `details`. ' +
      'Appends `reserve.placed`. A retry with the same `Idempotency-Key` places nothing twice.',
    tags: TAGS,
    params: lotParams,
    body: placeReserveBody,
    bodyExample: { buyer: { externalId: 'twitch:ashk', displayName: 'Ash K.' }, amount: 300 },
    errors: ['INVALID_TRANSITION', 'RESERVE_TOO_LOW'],
    responses: { 201: { description: 'Placed; readable at once', schema: reserveResponse, example: reserveExample } },
  })
  async reserve(@Auth() auth: AuthContext, @Param() params: z.output<typeof lotParams>, @Body() body: z.output<typeof placeReserveBody>, @Req() request: FastifyRequest): Promise<ReserveResponse> {
    const placed = await this.commands.execute(
      new PlaceReserveCommand(
        auth.workspaceId,
        auth.keyId,
        params.id,
        params.lotId,
        { buyer: { externalId: body.buyer.externalId, displayName: body.buyer.displayName ?? null }, amountMinor: toMinor(body.amount), buyerRequestId: body.buyerRequestId ?? null },
        String(request.id),
      ),
    );
    return this.queries.execute(new AnswerReserveQuery(placed));
  }

  @Get(':id/lots/:lotId/reserves')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listReserves',
    summary: 'List a lot\'s reserves, in the lot\'s order',
    tags: TAGS,
    params: lotParams,
    query: paginationQuery,
    responses: { 200: { description: 'A page of reserves (sequence 1, 2, 3…)', schema: reserveListResponse, example: { data: [reserveExample], nextCursor: null } } },
  })
  async reserves(@Auth() auth: AuthContext, @Param() params: z.output<typeof lotParams>, @QueryParams() query: z.output<typeof paginationQuery>): Promise<ListResponse<ReserveResponse>> {
    return toListResponse(await this.queries.execute(new ListReservesQuery(auth.workspaceId, params.id, params.lotId, query.limit, query.cursor)), (r) => r);
  }

  private async moveLot(
    auth: AuthContext,
    params: z.output<typeof lotParams>,
    move: 'open' | 'close',
    http: { request: FastifyRequest; reply: FastifyReply; ifMatch?: number },
  ): Promise<LotResponse> {
    const lot = await this.commands.execute(new MoveLotCommand(auth.workspaceId, auth.keyId, params.id, params.lotId, move, String(http.request.id), http.ifMatch));
    setETag(http.reply, lot.revision);
    return toLotResponse(lot);
  }
}
