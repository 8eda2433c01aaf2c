// HTTP: POST /api/v1/match-runs, GET /api/v1/match-packs and /api/v1/match-packs/:id. Request and
// response schemas live in match-pack.schemas.ts.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import {
  ApiOperation,
  Auth,
  type AuthContext,
  Idempotent,
  type ListResponse,
  RequireScope,
  setETag,
  toListResponse,
} from '@app/platform';

import { RunMatchCommand } from './match-pack.handlers';
import { GetMatchPackQuery, ListMatchPacksQuery } from './match-pack.queries';
import {
  listMatchPacksQuery,
  matchPackExample,
  matchPackIdParams,
  matchPackListResponse,
  matchPackResponse,
  type MatchPackResponse,
  runMatchBody,
  toMatchPackResponse,
} from './match-pack.schemas';

const TAGS = ['Matching'];

@Controller('api/v1')
export class MatchPacksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('match-runs')
  @HttpCode(201)
  @RequireScope('write:requests')
  @Idempotent()
  @ApiOperation({
    operationId: 'runMatch',
    versioned: 'etag',
    summary: 'Run the match engine for a buyer request',
    description:
      'Judges the request against available inventory and stores the result as a match pack: full matches ' +
      '(at least those counted in `matchCount`) and near misses (a typo in the name, one condition step below, a price up to 10 % above), ' +
      'each with an explainable score. New pairs are recorded on the request (`match.created`); the run emits `match.completed`.',
    tags: TAGS,
    body: runMatchBody,
    bodyExample: { buyerRequestId: matchPackExample.buyerRequestId },
    errors: ['NOT_FOUND'],
    responses: { 201: { description: 'The stored match pack', schema: matchPackResponse, example: matchPackExample } },
  })
  async run(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof runMatchBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MatchPackResponse> {
    const pack = await this.commands.execute(new RunMatchCommand(auth.workspaceId, auth.keyId, body.buyerRequestId, String(request.id)));
    setETag(reply, pack.revision);
    return toMatchPackResponse(pack);
  }

  @Get('match-packs')
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'listMatchPacks',
    summary: 'List match packs, newest first',
    tags: TAGS,
    query: listMatchPacksQuery,
    responses: { 200: { description: 'A page of match packs', schema: matchPackListResponse, example: { data: [matchPackExample], nextCursor: null } } },
  })
  async list(
    @Auth() auth: AuthContext,
    @QueryParams() query: z.output<typeof listMatchPacksQuery>,
  ): Promise<ListResponse<MatchPackResponse>> {
    const page = await this.queries.execute(new ListMatchPacksQuery(auth.workspaceId, query.limit, query.cursor, query.buyerRequestId));
    return toListResponse(page, toMatchPackResponse);
  }

  @Get('match-packs/:id')
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'getMatchPack',
    versioned: 'etag',
    summary: 'Read one match pack',
    tags: TAGS,
    params: matchPackIdParams,
    responses: { 200: { description: 'The match pack', schema: matchPackResponse, example: matchPackExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof matchPackIdParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MatchPackResponse> {
    const pack = await this.queries.execute(new GetMatchPackQuery(auth.workspaceId, params.id));
    setETag(reply, pack.revision);
    return toMatchPackResponse(pack);
  }
}
