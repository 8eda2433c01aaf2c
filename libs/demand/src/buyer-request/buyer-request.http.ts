// HTTP: /api/v1/buyer-requests — capture, list, read, change and archive demand, and read the
// matches found for a request. Request and response schemas live in buyer-request.schemas.ts.
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { normalizeCardName, normalizeSetName } from '@app/catalog';
import {
  ApiOperation,
  Auth,
  type AuthContext,
  Idempotent,
  IfMatch,
  type ListResponse,
  paginationQuery,
  RequireScope,
  setETag,
  toListResponse,
  toMinor,
} from '@app/platform';
import { DomainError } from '@app/platform/domain';

import {
  ArchiveBuyerRequestCommand,
  type BuyerRequestInput,
  CreateBuyerRequestCommand,
  UpdateBuyerRequestCommand,
} from './buyer-request.handlers';
import { AnswerBuyerRequestQuery, GetBuyerRequestQuery, ListBuyerRequestMatchesQuery, ListBuyerRequestsQuery } from './buyer-request.queries';
import {
  archiveBuyerRequestBody,
  buyerRequestExample,
  buyerRequestIdParams,
  buyerRequestListResponse,
  buyerRequestResponse,
  type BuyerRequestResponse,
  createBuyerRequestBody,
  createBuyerRequestExample,
  createdBuyerRequestResponse,
  listBuyerRequestsQuery,
  matchExample,
  matchListResponse,
  type MatchResponse,
  toBuyerIdentity,
  toBuyerRequestResponse,
  toMatchResponse,
  updateBuyerRequestBody,
} from './buyer-request.schemas';

const TAGS = ['Buyer requests'];

@Controller('api/v1/buyer-requests')
export class BuyerRequestsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:requests')
  @Idempotent()
  @ApiOperation({
    operationId: 'createBuyerRequest',
    versioned: 'etag',
    summary: 'Capture buyer demand',
    description:
      'Creates a buyer request. Only `cardName` is required: without `setName` it takes any printing of the card, without `condition` any condition, ' +
      'without `maxPrice` any price. It is checked against available inventory at once (same card, and the set when given; ' +
      'condition at least the requested one, price at most `maxPrice`, same currency); the answer carries the match count. ' +
      'An optional `buyer` names who wants it (personal data: stored encrypted, answered on reads of the request only, never in webhook events).',
    tags: TAGS,
    body: createBuyerRequestBody,
    bodyExample: createBuyerRequestExample,
    responses: {
      201: {
        description: 'Created; readable at once (read-your-writes)',
        schema: createdBuyerRequestResponse,
        example: { id: buyerRequestExample.id, matchCount: 1 },
      },
    },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof createBuyerRequestBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<z.output<typeof createdBuyerRequestResponse>> {
    const { id, matchCount, revision } = await this.commands.execute(
      new CreateBuyerRequestCommand(
        auth.workspaceId,
        auth.keyId,
        {
          cardName: body.cardName,
          setName: body.setName ?? null,
          condition: body.condition ?? null,
          maxPriceMinor: body.maxPrice === undefined || body.maxPrice === null ? null : toMinor(body.maxPrice),
          currency: body.currency ?? 'USD',
          source: body.source ?? null,
          buyer: toBuyerIdentity(body.buyer),
        },
        String(request.id),
      ),
    );
    // The full matches it was created with, as decided; the write left the request and its matches
    // in their read models, so its GET and its matches route see them at once.
    setETag(reply, revision);
    return { id, matchCount };
  }

  @Get()
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'listBuyerRequests',
    summary: 'List buyer requests, newest first',
    tags: TAGS,
    query: listBuyerRequestsQuery,
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
    @QueryParams() query: z.output<typeof listBuyerRequestsQuery>,
  ): Promise<ListResponse<BuyerRequestResponse>> {
    if (query.setName !== undefined && query.anySet !== undefined) {
      throw new DomainError('VALIDATION_FAILED', 'Give setName or anySet, not both', { fields: ['setName', 'anySet'] });
    }
    const flag = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
    const page = await this.queries.execute(
      new ListBuyerRequestsQuery(auth.workspaceId, query.limit, query.cursor, {
        status: query.status,
        cardKey: query.cardName === undefined ? undefined : normalizeCardName(query.cardName).value.key,
        setKey: query.setName === undefined ? undefined : normalizeSetName(query.setName).value.key,
        buyerId: query.buyerId,
        anySet: flag(query.anySet),
        anyCondition: flag(query.anyCondition),
        anyPrice: flag(query.anyPrice),
        createdFrom: query.createdFrom === undefined ? undefined : new Date(query.createdFrom).toISOString(),
        createdTo: query.createdTo === undefined ? undefined : new Date(query.createdTo).toISOString(),
      }),
    );
    return toListResponse(page, toBuyerRequestResponse);
  }

  @Get(':id')
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'getBuyerRequest',
    versioned: 'etag',
    summary: 'Read one buyer request',
    tags: TAGS,
    params: buyerRequestIdParams,
    responses: { 200: { description: 'The buyer request', schema: buyerRequestResponse, example: buyerRequestExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof buyerRequestIdParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BuyerRequestResponse> {
    const opened = await this.queries.execute(new GetBuyerRequestQuery(auth.workspaceId, params.id));
    setETag(reply, opened.revision);
    return toBuyerRequestResponse(opened);
  }

  @Patch(':id')
  @RequireScope('write:requests')
  @ApiOperation({
    operationId: 'updateBuyerRequest',
    versioned: 'if-match',
    summary: 'Change a buyer request',
    description:
      'Changes any of its criteria; the new criteria are checked against inventory at once. `null` opens `setName` (any printing), ' +
      '`condition` (any condition) or `maxPrice` (no price limit); a value closes it again. `buyer` replaces the buyer ' +
      '(`null` removes it) and never re-runs matching. Archived requests cannot change (409).',
    tags: TAGS,
    params: buyerRequestIdParams,
    body: updateBuyerRequestBody,
    bodyExample: { maxPrice: 500 },
    responses: { 200: { description: 'The changed request', schema: buyerRequestResponse, example: buyerRequestExample } },
  })
  async update(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof buyerRequestIdParams>,
    @Body() body: z.output<typeof updateBuyerRequestBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BuyerRequestResponse> {
    const changes: Partial<BuyerRequestInput> = {
      cardName: body.cardName,
      setName: body.setName,
      condition: body.condition,
      maxPriceMinor: body.maxPrice === undefined || body.maxPrice === null ? body.maxPrice : toMinor(body.maxPrice),
      currency: body.currency,
      source: body.source,
      buyer: body.buyer === undefined ? undefined : toBuyerIdentity(body.buyer),
    };
    const written = await this.commands.execute(
      new UpdateBuyerRequestCommand(auth.workspaceId, auth.keyId, params.id, changes, String(request.id), ifMatch),
    );
    setETag(reply, written.request.revision);
    return toBuyerRequestResponse(await this.queries.execute(new AnswerBuyerRequestQuery(auth.workspaceId, written.request)));
  }

  @Post(':id/archive')
  @HttpCode(200)
  @RequireScope('write:requests')
  @Idempotent()
  @ApiOperation({
    operationId: 'archiveBuyerRequest',
    versioned: 'if-match',
    summary: 'Archive a buyer request',
    description:
      'An archived request never matches again. Archiving an archived request changes nothing and answers it as it is; ' +
      'a repeat naming another `reason` than the one recorded is 409 CONFLICT (details: `field`, `recorded`, `given`).',
    tags: TAGS,
    params: buyerRequestIdParams,
    body: archiveBuyerRequestBody,
    bodyExample: { reason: 'bought elsewhere' },
    errors: ['CONFLICT'],
    responses: {
      200: {
        description: 'The archived request',
        schema: buyerRequestResponse,
        example: { ...buyerRequestExample, status: 'archived', archivedAt: '2025-11-23T09:00:00.000Z' },
      },
    },
  })
  async archive(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof buyerRequestIdParams>,
    @Body() body: z.output<typeof archiveBuyerRequestBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BuyerRequestResponse> {
    const written = await this.commands.execute(
      new ArchiveBuyerRequestCommand(auth.workspaceId, auth.keyId, params.id, body.reason ?? null, String(request.id), ifMatch),
    );
    setETag(reply, written.request.revision);
    return toBuyerRequestResponse(await this.queries.execute(new AnswerBuyerRequestQuery(auth.workspaceId, written.request)));
  }

  @Get(':id/matches')
  @RequireScope('read:requests')
  @ApiOperation({
    operationId: 'listBuyerRequestMatches',
    summary: 'List the matches found for a buyer request, best first',
    description: 'Every match recorded for the request: at creation, on change, by reverse matching (new or repriced inventory) and by match runs.',
    tags: TAGS,
    params: buyerRequestIdParams,
    query: paginationQuery,
    responses: { 200: { description: 'A page of matches', schema: matchListResponse, example: { data: [matchExample], nextCursor: null } } },
  })
  async matches(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof buyerRequestIdParams>,
    @QueryParams() query: z.output<typeof paginationQuery>,
  ): Promise<ListResponse<MatchResponse>> {
    const page = await this.queries.execute(new ListBuyerRequestMatchesQuery(auth.workspaceId, params.id, query.limit, query.cursor));
    return toListResponse(page, toMatchResponse);
  }
}
