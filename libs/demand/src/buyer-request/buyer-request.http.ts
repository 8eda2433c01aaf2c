// HTTP: /api/v1/buyer-requests — capture, list, read, change and archive demand, and read the
// matches found for a request.
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query as QueryParams, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

import { normalizeCardName, normalizeSetName } from '@app/catalog';
import {
  ApiError,
  ApiOperation,
  Auth,
  type AuthContext,
  currencyCode,
  fromMinor,
  Idempotent,
  type ListResponse,
  listResponseSchema,
  moneyAmount,
  paginationQuery,
  ReadYourWrites,
  RequireScope,
  toListResponse,
  toMinor,
} from '@app/platform';

import { MATCH_KINDS } from './buyer-request.events';
import {
  ArchiveBuyerRequestCommand,
  type BuyerRequestInput,
  CreateBuyerRequestCommand,
  GetBuyerRequestQuery,
  ListBuyerRequestMatchesQuery,
  ListBuyerRequestsQuery,
  UpdateBuyerRequestCommand,
} from './buyer-request.handlers';
import type { BuyerRequestDoc, MatchDoc } from './buyer-request.projection';

const cardName = z.string().trim().min(1).max(200).meta({ description: 'Name of the wanted item; normalized (see docs/conditions.md).' });
const setName = z.string().trim().min(1).max(200).meta({ description: 'Set the item belongs to: name, code (`BS`) or id (`base1`).' });
const condition = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .meta({ description: 'Lowest acceptable condition: raw (`Near Mint`, `NM`, `LP`…) or graded (`PSA 9`, `BGS 9.5`…).' });
const maxPrice = moneyAmount.meta({ description: 'Highest price the buyer will pay: a decimal with at most 2 places.' });
const source = z.string().trim().min(1).max(100).meta({ description: 'Where the request came from.' });

export const createBuyerRequestBody = z
  .strictObject({
    cardName,
    setName,
    condition,
    maxPrice,
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code of `maxPrice`; default `USD`.' }),
    source: source.optional(),
  })
  .meta({ id: 'CreateBuyerRequest' });

export const updateBuyerRequestBody = z
  .strictObject({
    cardName: cardName.optional(),
    setName: setName.optional(),
    condition: condition.optional(),
    maxPrice: maxPrice.optional(),
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code of `maxPrice`.' }),
    source: source.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Give at least one field to change' })
  .meta({ id: 'UpdateBuyerRequest' });

export const archiveBuyerRequestBody = z
  .strictObject({
    reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Why the request is archived (kept for the record).' }),
  })
  .meta({ id: 'ArchiveBuyerRequest' });

export const buyerRequestIdParams = z.object({
  id: z.string().min(1).max(64).meta({ description: 'Buyer request id (`br_…`).', examples: ['br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3'] }),
});

const isoInstant = z.iso.datetime({ offset: true });

export const listBuyerRequestsQuery = paginationQuery.extend({
  status: z.enum(['open', 'matched', 'archived']).optional().meta({ description: '`open` (no match yet), `matched` or `archived`.' }),
  cardName: z.string().trim().min(1).max(200).optional().meta({ description: 'Only requests for this card (normalized: case, accents and spacing do not matter).' }),
  setName: z.string().trim().min(1).max(200).optional().meta({ description: 'Only requests for this set (name, code or id).' }),
  createdFrom: isoInstant.optional().meta({ description: 'Created at or after this instant (ISO 8601).' }),
  createdTo: isoInstant.optional().meta({ description: 'Created before this instant (ISO 8601).' }),
});

export const buyerRequestResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Buyer request id (`br_…`).' }),
    cardName: z.string().meta({ description: 'Normalized card name.' }),
    setName: z.string().meta({ description: 'Normalized set name.' }),
    condition: z.string().meta({ description: 'Normalized condition label.' }),
    maxPrice: z.number().meta({ description: 'Decimal, at most 2 places, in `currency`.' }),
    currency: z.string().meta({ description: 'ISO 4217 code.' }),
    source: z.string().nullable(),
    status: z.enum(['open', 'matched', 'archived']).meta({ description: '`open` until the first full match, then `matched`; `archived` never matches again.' }),
    matchCount: z.number().int().min(0).meta({ description: 'Full matches found so far (at most 100 are kept).' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    archivedAt: z.iso.datetime().nullable(),
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

export const matchFactorResponse = z
  .strictObject({
    name: z.enum(['name_similarity', 'set', 'condition_margin', 'price_headroom', 'near_miss_penalty']),
    value: z.number().meta({ description: 'The factor on its own, 0..1.' }),
    weight: z.number(),
    contribution: z.number().meta({ description: 'Its share of the score; the contributions sum to the score.' }),
  })
  .meta({ id: 'MatchFactor' });

export const matchResponse = z
  .strictObject({
    id: z.string().meta({ description: 'Match id (`mt_…`); a trade is created from it.' }),
    buyerRequestId: z.string(),
    inventoryItemId: z.string(),
    kind: z.enum(MATCH_KINDS).meta({ description: '`full` meets every criterion; `near_miss` is close (a typo, one condition step, ≤ 10 % over the price).' }),
    score: z.number().min(0).max(1),
    factors: z.array(matchFactorResponse),
    reasons: z.array(z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Match' });

export const matchListResponse = listResponseSchema(matchResponse).meta({ id: 'MatchList' });

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
  status: 'matched',
  matchCount: 1,
  createdAt: '2025-11-22T15:04:05.000Z',
  updatedAt: '2025-11-22T15:04:05.000Z',
  archivedAt: null,
};

const matchExample: z.output<typeof matchResponse> = {
  id: 'mt_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4',
  buyerRequestId: buyerRequestExample.id,
  inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5',
  kind: 'full',
  score: 0.95,
  factors: [
    { name: 'name_similarity', value: 1, weight: 0.4, contribution: 0.4 },
    { name: 'set', value: 1, weight: 0.2, contribution: 0.2 },
    { name: 'condition_margin', value: 0.8, weight: 0.2, contribution: 0.16 },
    { name: 'price_headroom', value: 0.95, weight: 0.2, contribution: 0.19 },
  ],
  reasons: ['same card', 'same set', 'Near Mint meets the requested Near Mint', 'price 400.00 is 11 % under the 450.50 maximum'],
  createdAt: '2025-11-22T15:04:05.000Z',
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
    archivedAt: doc.archivedAt ?? null,
  };
}

export function toMatchResponse(doc: MatchDoc): z.output<typeof matchResponse> {
  return {
    id: doc.id,
    buyerRequestId: doc.buyerRequestId,
    inventoryItemId: doc.inventoryItemId,
    kind: doc.kind,
    score: doc.score,
    factors: doc.factors,
    reasons: doc.reasons,
    createdAt: doc.createdAt,
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
    description:
      'Creates a buyer request. It is checked against available inventory at once (same card and set, ' +
      'condition at least the requested one, price at most `maxPrice`, same currency); the answer carries the match count.',
    tags: TAGS,
    body: createBuyerRequestBody,
    bodyExample: charizard,
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
    const doc = await this.queries.execute(new GetBuyerRequestQuery(auth.workspaceId, id));
    return { id, matchCount: doc?.matchCount ?? 0 };
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
    const page = await this.queries.execute(
      new ListBuyerRequestsQuery(auth.workspaceId, query.limit, query.cursor, {
        status: query.status,
        cardKey: query.cardName === undefined ? undefined : normalizeCardName(query.cardName).value.key,
        setKey: query.setName === undefined ? undefined : normalizeSetName(query.setName).value.key,
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
    summary: 'Read one buyer request',
    tags: TAGS,
    params: buyerRequestIdParams,
    responses: { 200: { description: 'The buyer request', schema: buyerRequestResponse, example: buyerRequestExample } },
  })
  async get(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof buyerRequestIdParams>,
  ): Promise<BuyerRequestResponse> {
    return toBuyerRequestResponse(await this.load(auth, params.id));
  }

  @Patch(':id')
  @RequireScope('write:requests')
  @ApiOperation({
    operationId: 'updateBuyerRequest',
    summary: 'Change a buyer request',
    description: 'Changes any of its criteria; the new criteria are checked against inventory at once. Archived requests cannot change (409).',
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
  ): Promise<BuyerRequestResponse> {
    const changes: Partial<BuyerRequestInput> = {
      cardName: body.cardName,
      setName: body.setName,
      condition: body.condition,
      maxPriceMinor: body.maxPrice === undefined ? undefined : toMinor(body.maxPrice),
      currency: body.currency,
      source: body.source,
    };
    const { position } = await this.commands.execute(
      new UpdateBuyerRequestCommand(auth.workspaceId, auth.keyId, params.id, changes, String(request.id)),
    );
    await this.readYourWrites.settle(position);
    return toBuyerRequestResponse(await this.load(auth, params.id));
  }

  @Post(':id/archive')
  @HttpCode(200)
  @RequireScope('write:requests')
  @Idempotent()
  @ApiOperation({
    operationId: 'archiveBuyerRequest',
    summary: 'Archive a buyer request',
    description: 'An archived request never matches again. Archiving an archived request changes nothing.',
    tags: TAGS,
    params: buyerRequestIdParams,
    body: archiveBuyerRequestBody,
    bodyExample: { reason: 'bought elsewhere' },
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
  ): Promise<BuyerRequestResponse> {
    const { position } = await this.commands.execute(
      new ArchiveBuyerRequestCommand(auth.workspaceId, auth.keyId, params.id, body.reason ?? null, String(request.id)),
    );
    await this.readYourWrites.settle(position);
    return toBuyerRequestResponse(await this.load(auth, params.id));
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
  ): Promise<ListResponse<z.output<typeof matchResponse>>> {
    await this.load(auth, params.id);
    const page = await this.queries.execute(new ListBuyerRequestMatchesQuery(params.id, query.limit, query.cursor));
    return toListResponse(page, toMatchResponse);
  }

  private async load(auth: AuthContext, id: string): Promise<BuyerRequestDoc> {
    const doc = await this.queries.execute(new GetBuyerRequestQuery(auth.workspaceId, id));
    if (!doc) throw ApiError.notFound('buyer request', id);
    return doc;
  }
}
