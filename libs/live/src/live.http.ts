// HTTP: /api/v1/live-sessions — a host runs a show (scheduled → live → ended), puts lots up one by
// one (each reserves its units from inventory while open), viewers' reserves are placed on the open
// lot (an auction or a claim sale, judged in the log's order), and when a lot closes (or the show
// ends) each winner gets a hold with a deposit due, or a trade, as the session is set.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, type ListResponse, paginationQuery, RequireScope, toListResponse, toMinor } from '@app/platform';

import { AddLotCommand, MoveLotCommand, PlaceReserveCommand } from './lot/lot.handlers';
import { AnswerReserveQuery, GetLiveSessionQuery, GetLotQuery, ListLiveSessionsQuery, ListLotsQuery, ListReservesQuery } from './live.queries';
import {
  addLotBody,
  createLiveSessionBody,
  listLiveSessionsQuery,
  listLotsQuery,
  liveSessionExample,
  liveSessionIdParams,
  liveSessionListResponse,
  liveSessionResponse,
  type LiveSessionResponse,
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
  toLiveSessionResponse,
  toLotResponse,
} from './live.schemas';
import { CreateLiveSessionCommand, MoveLiveSessionCommand } from './session/live-session.handlers';

const TAGS = ['Live selling'];
const SESSION =
  'A live session is a show: `scheduled` until started, `live` while lots are put up and reserved on, `ended` after. ' +
  'Ending it closes every lot still open. Starting a live session or ending an ended one again is a no-op answering it as it is.';
const LOT =
  'A lot puts units of an inventory item up in a session: `pending` when added, `open` (its units reserved from inventory; reserves accepted) ' +
  'while the session is live, then `closed`. With an `increment` it is an auction (each reserve beats the best by at least the increment; the best wins the lot), ' +
  'without one a claim sale (one unit per reserve at or above the starting price, first come first served; later ones waitlisted). ' +
  'When it closes, a process manager gives each winner a hold with a deposit due (or a trade, as the session is set) on the lot\'s units and releases the unsold ones (`settled`).';

@Controller('api/v1/live-sessions')
export class LiveSessionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'createLiveSession',
    summary: 'Create a live session',
    description: SESSION,
    tags: TAGS,
    body: createLiveSessionBody,
    bodyExample: { title: 'Friday night vintage breaks', currency: 'USD', scheduledAt: '2030-01-01T20:00:00Z' },
    responses: { 201: { description: 'Created (`scheduled`); readable at once', schema: liveSessionResponse, example: { ...liveSessionExample, status: 'scheduled', startedAt: null, lotCount: 0 } } },
  })
  async create(@Auth() auth: AuthContext, @Body() body: z.output<typeof createLiveSessionBody>, @Req() request: FastifyRequest): Promise<LiveSessionResponse> {
    const session = await this.commands.execute(
      new CreateLiveSessionCommand(
        auth.workspaceId,
        auth.keyId,
        {
          title: body.title,
          currency: body.currency ?? 'USD',
          scheduledAt: body.scheduledAt ? new Date(body.scheduledAt).toISOString() : null,
          settlement: body.settlement ?? 'hold',
          depositPercent: body.depositPercent ?? 20,
          paymentWindowHours: body.paymentWindowHours ?? 48,
        },
        String(request.id),
      ),
    );
    return toLiveSessionResponse(session);
  }

  @Get()
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'listLiveSessions',
    summary: 'List live sessions, newest first',
    tags: TAGS,
    query: listLiveSessionsQuery,
    responses: { 200: { description: 'A page of live sessions', schema: liveSessionListResponse, example: { data: [liveSessionExample], nextCursor: null } } },
  })
  async list(@Auth() auth: AuthContext, @QueryParams() query: z.output<typeof listLiveSessionsQuery>): Promise<ListResponse<LiveSessionResponse>> {
    return toListResponse(await this.queries.execute(new ListLiveSessionsQuery(auth.workspaceId, query.status, query.limit, query.cursor)), (s) => s);
  }

  @Get(':id')
  @RequireScope('read:inventory')
  @ApiOperation({
    operationId: 'getLiveSession',
    summary: 'Get a live session',
    description: SESSION,
    tags: TAGS,
    params: liveSessionIdParams,
    responses: { 200: { description: 'The live session', schema: liveSessionResponse, example: liveSessionExample } },
  })
  get(@Auth() auth: AuthContext, @Param() params: z.output<typeof liveSessionIdParams>): Promise<LiveSessionResponse> {
    return this.queries.execute(new GetLiveSessionQuery(auth.workspaceId, params.id));
  }

  @Post(':id/start')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'startLiveSession',
    summary: 'Start a live session (go live)',
    description: `No body. Appends \`live_session.started\`. ${SESSION}`,
    tags: TAGS,
    params: liveSessionIdParams,
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The live session', schema: liveSessionResponse, example: liveSessionExample } },
  })
  start(@Auth() auth: AuthContext, @Param() params: z.output<typeof liveSessionIdParams>, @Req() request: FastifyRequest): Promise<LiveSessionResponse> {
    return this.move(auth, params.id, 'start', request);
  }

  @Post(':id/end')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'endLiveSession',
    summary: 'End a live session',
    description: `No body. Closes every lot still open (their winners are settled) and appends \`live_session.ended\`. ${SESSION}`,
    tags: TAGS,
    params: liveSessionIdParams,
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The ended live session', schema: liveSessionResponse, example: { ...liveSessionExample, status: 'ended', endedAt: '2025-11-23T22:00:00.000Z' } } },
  })
  end(@Auth() auth: AuthContext, @Param() params: z.output<typeof liveSessionIdParams>, @Req() request: FastifyRequest): Promise<LiveSessionResponse> {
    return this.move(auth, params.id, 'end', request);
  }

  @Post(':id/lots')
  @HttpCode(201)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'addLot',
    summary: 'Add a lot to a live session',
    description: `Lots may be added while the session is scheduled or live. ${LOT}`,
    tags: TAGS,
    params: liveSessionIdParams,
    body: addLotBody,
    bodyExample: { inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5', quantity: 1, startingPrice: 300, increment: 10 },
    errors: ['INVALID_TRANSITION'],
    responses: { 201: { description: 'Added (`pending`); readable at once', schema: lotResponse, example: { ...lotExample, status: 'pending', reserveCount: 0, best: null, minimumAmount: null, openedAt: null } } },
  })
  async addLot(@Auth() auth: AuthContext, @Param() params: z.output<typeof liveSessionIdParams>, @Body() body: z.output<typeof addLotBody>, @Req() request: FastifyRequest): Promise<LotResponse> {
    const lot = await this.commands.execute(
      new AddLotCommand(
        auth.workspaceId,
        auth.keyId,
        params.id,
        { inventoryItemId: body.inventoryItemId, quantity: body.quantity ?? 1, startingPriceMinor: toMinor(body.startingPrice), incrementMinor: body.increment === undefined ? null : toMinor(body.increment) },
        String(request.id),
      ),
    );
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
    summary: 'Get a lot',
    description: LOT,
    tags: TAGS,
    params: lotParams,
    responses: { 200: { description: 'The lot', schema: lotResponse, example: lotExample } },
  })
  lot(@Auth() auth: AuthContext, @Param() params: z.output<typeof lotParams>): Promise<LotResponse> {
    return this.queries.execute(new GetLotQuery(auth.workspaceId, params.id, params.lotId));
  }

  @Post(':id/lots/:lotId/open')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'openLot',
    summary: 'Open a lot for reserves',
    description: `No body. Only while the session is live; reserves the lot's units (\`409 INSUFFICIENT_QUANTITY\` when fewer are available). ${LOT}`,
    tags: TAGS,
    params: lotParams,
    errors: ['INVALID_TRANSITION', 'INSUFFICIENT_QUANTITY'],
    responses: { 200: { description: 'The open lot', schema: lotResponse, example: { ...lotExample, reserveCount: 0, best: null, minimumAmount: 300 } } },
  })
  open(@Auth() auth: AuthContext, @Param() params: z.output<typeof lotParams>, @Req() request: FastifyRequest): Promise<LotResponse> {
    return this.moveLot(auth, params, 'open', request);
  }

  @Post(':id/lots/:lotId/close')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'closeLot',
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
  close(@Auth() auth: AuthContext, @Param() params: z.output<typeof lotParams>, @Req() request: FastifyRequest): Promise<LotResponse> {
    return this.moveLot(auth, params, 'close', request);
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

  private async move(auth: AuthContext, id: string, move: 'start' | 'end', request: FastifyRequest): Promise<LiveSessionResponse> {
    return toLiveSessionResponse(await this.commands.execute(new MoveLiveSessionCommand(auth.workspaceId, auth.keyId, id, move, String(request.id))));
  }

  private async moveLot(auth: AuthContext, params: z.output<typeof lotParams>, move: 'open' | 'close', request: FastifyRequest): Promise<LotResponse> {
    return toLotResponse(await this.commands.execute(new MoveLotCommand(auth.workspaceId, auth.keyId, params.id, params.lotId, move, String(request.id))));
  }
}
