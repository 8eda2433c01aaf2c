// HTTP: /api/v1/live-sessions — a host runs a show: scheduled → live → ended. Its lots and their
// reserves are lot.http.ts's. Each write answers the session as it left it, with its ETag.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, IfMatch, type ListResponse, RequireScope, setETag, toListResponse } from '@app/platform';

import { CreateLiveSessionCommand, MoveLiveSessionCommand } from './live-session.handlers';
import { GetLiveSessionQuery, ListLiveSessionsQuery } from './live-session.queries';
import {
  createLiveSessionBody,
  listLiveSessionsQuery,
  liveSessionExample,
  liveSessionIdParams,
  liveSessionListResponse,
  liveSessionResponse,
  type LiveSessionResponse,
  toLiveSessionResponse,
} from './live-session.schemas';

const TAGS = ['Live selling'];
const SESSION =
  'A live session is a show: `scheduled` until started, `live` while lots are put up and reserved on, `ended` after. ' +
  'Ending it closes every lot still open. Starting a live session or ending an ended one again is a no-op answering it as it is.';

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
    versioned: 'etag',
    summary: 'Create a live session',
    description: SESSION,
    tags: TAGS,
    body: createLiveSessionBody,
    bodyExample: { title: 'Friday night vintage breaks', currency: 'USD', scheduledAt: '2030-01-01T20:00:00Z' },
    responses: { 201: { description: 'Created (`scheduled`); readable at once', schema: liveSessionResponse, example: { ...liveSessionExample, status: 'scheduled', startedAt: null, lotCount: 0 } } },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createLiveSessionBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LiveSessionResponse> {
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
    setETag(reply, session.revision);
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
    versioned: 'etag',
    summary: 'Get a live session',
    description: SESSION,
    tags: TAGS,
    params: liveSessionIdParams,
    responses: { 200: { description: 'The live session', schema: liveSessionResponse, example: liveSessionExample } },
  })
  async get(@Auth() auth: AuthContext, @Param() params: z.output<typeof liveSessionIdParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<LiveSessionResponse> {
    const { answer, revision } = await this.queries.execute(new GetLiveSessionQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return answer;
  }

  @Post(':id/start')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'startLiveSession',
    versioned: 'if-match',
    summary: 'Start a live session (go live)',
    description: `No body. Appends \`live_session.started\`. ${SESSION}`,
    tags: TAGS,
    params: liveSessionIdParams,
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The live session', schema: liveSessionResponse, example: liveSessionExample } },
  })
  start(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof liveSessionIdParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LiveSessionResponse> {
    return this.move(auth, params.id, 'start', { request, reply, ifMatch });
  }

  @Post(':id/end')
  @HttpCode(200)
  @RequireScope('write:inventory')
  @Idempotent()
  @ApiOperation({
    operationId: 'endLiveSession',
    versioned: 'if-match',
    summary: 'End a live session',
    description: `No body. Closes every lot still open (their winners are settled) and appends \`live_session.ended\`. ${SESSION}`,
    tags: TAGS,
    params: liveSessionIdParams,
    errors: ['INVALID_TRANSITION'],
    responses: { 200: { description: 'The ended live session', schema: liveSessionResponse, example: { ...liveSessionExample, status: 'ended', endedAt: '2025-11-23T22:00:00.000Z' } } },
  })
  end(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof liveSessionIdParams>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LiveSessionResponse> {
    return this.move(auth, params.id, 'end', { request, reply, ifMatch });
  }

  private async move(auth: AuthContext, id: string, move: 'start' | 'end', http: { request: FastifyRequest; reply: FastifyReply; ifMatch?: number }): Promise<LiveSessionResponse> {
    const session = await this.commands.execute(new MoveLiveSessionCommand(auth.workspaceId, auth.keyId, id, move, String(http.request.id), http.ifMatch));
    setETag(http.reply, session.revision);
    return toLiveSessionResponse(session);
  }
}
