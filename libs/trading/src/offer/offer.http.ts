// HTTP: /api/v1/offers — make an offer, answer one (accept opens the trade, reject, counter), list
// and read offers with their thread.
import { Body, Controller, Get, HttpCode, Param, Post, Query as QueryParams, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiOperation, Auth, type AuthContext, Idempotent, IfMatch, type ListResponse, RequireScope, setETag, toListResponse, toMinor } from '@app/platform';

import { AnswerOfferCommand, MakeOfferCommand, type OfferAnswer } from './offer.handlers';
import { AnswerFromOfferQuery, GetVersionedOfferQuery, ListOffersQuery } from './offer.queries';
import {
  acceptOfferBody,
  counterOfferBody,
  listOffersQuery,
  makeOfferBody,
  offerExample,
  offerIdParams,
  offerListResponse,
  offerResponse,
  type OfferResponse,
  rejectOfferBody,
} from './offer.schemas';

const TAGS = ['Offers'];
const RULES =
  'An offer is `pending` until the party it was made to answers it — `accepted` (a trade opens on its terms and reserves ' +
  'its units), `rejected`, or `countered` (the counter-offer opens in the same thread, from the other party) — or it ' +
  'lapses at `expiresAt` (default 48 h; `expired`, by a durable timer, and never answerable past it). The API key ' +
  'holder is the seller: an answer acts as the seller unless `party: "buyer"` relays the buyer\'s. Answering as the party ' +
  'that made the offer is `409 INVALID_TRANSITION`. Repeating an answer that took effect is a no-op answering the offer as it is; ' +
  'a repeat that names another `party`, `reason`, `amount` or `message` than the answer it repeats is `409 CONFLICT` naming the field ' +
  '(`details`: `field`, `recorded`, `given`). The answer to a write is the offer as that write left it (its `thread` is on `GET /offers/:id`).';

@Controller('api/v1/offers')
export class OffersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'makeOffer',
    versioned: 'etag',
    summary: 'Make an offer',
    description: `Opens a negotiation thread on an item (for a buyer request or a match, when given). ${RULES}`,
    tags: TAGS,
    body: makeOfferBody,
    bodyExample: { inventoryItemId: 'inv_01K8Z3Q4V5W6X7Y8Z9A0B1C2D5', buyerRequestId: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', amount: 400, from: 'buyer', message: 'would you take 400?' },
    errors: ['NOT_FOUND'],
    responses: { 201: { description: 'Made; readable at once', schema: offerResponse, example: offerExample } },
  })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: z.output<typeof makeOfferBody>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OfferResponse> {
    const offer = await this.commands.execute(
      new MakeOfferCommand(
        auth.workspaceId,
        auth.keyId,
        {
          inventoryItemId: body.inventoryItemId,
          buyerRequestId: body.buyerRequestId ?? null,
          matchId: body.matchId ?? null,
          amountMinor: toMinor(body.amount),
          currency: body.currency,
          quantity: body.quantity ?? 1,
          from: body.from,
          message: body.message ?? null,
          expiresAt: body.expiresAt,
        },
        String(request.id),
      ),
    );
    setETag(reply, offer.revision);
    return this.queries.execute(new AnswerFromOfferQuery(auth.workspaceId, offer));
  }

  @Get()
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listOffers',
    summary: 'List offers, newest first',
    tags: TAGS,
    query: listOffersQuery,
    responses: { 200: { description: 'A page of offers', schema: offerListResponse, example: { data: [offerExample], nextCursor: null } } },
  })
  async list(@Auth() auth: AuthContext, @QueryParams() query: z.output<typeof listOffersQuery>): Promise<ListResponse<OfferResponse>> {
    const { limit, cursor, ...filters } = query;
    return toListResponse(await this.queries.execute(new ListOffersQuery(auth.workspaceId, filters, limit, cursor)), (o) => o);
  }

  @Get(':id')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'getOffer',
    versioned: 'etag',
    summary: 'Get an offer with its thread',
    description: RULES,
    tags: TAGS,
    params: offerIdParams,
    responses: { 200: { description: 'The offer, and every offer of its thread', schema: offerResponse, example: { ...offerExample, thread: [offerExample] } } },
  })
  async get(@Auth() auth: AuthContext, @Param() params: z.output<typeof offerIdParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<OfferResponse> {
    const { offer, revision } = await this.queries.execute(new GetVersionedOfferQuery(auth.workspaceId, params.id));
    setETag(reply, revision);
    return offer;
  }

  @Post(':id/accept')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'acceptOffer',
    versioned: 'if-match',
    summary: 'Accept an offer: the trade opens',
    description: `The body may be left out. \`409 INSUFFICIENT_QUANTITY\` when the units are gone. ${RULES}`,
    tags: TAGS,
    params: offerIdParams,
    body: acceptOfferBody,
    bodyExample: { party: 'seller' },
    errors: ['INVALID_TRANSITION', 'CONFLICT', 'INSUFFICIENT_QUANTITY'],
    responses: { 200: { description: 'The accepted offer (`tradeId` names the trade)', schema: offerResponse, example: { ...offerExample, status: 'accepted', tradeId: 'trd_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', answeredBy: 'buyer' } } },
  })
  accept(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof offerIdParams>,
    @Body() body: z.output<typeof acceptOfferBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(auth, params.id, { type: 'accept', party: body.party }, { request, reply, ifMatch });
  }

  @Post(':id/reject')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'rejectOffer',
    versioned: 'if-match',
    summary: 'Reject an offer',
    description: `The body may be left out. ${RULES}`,
    tags: TAGS,
    params: offerIdParams,
    body: rejectOfferBody,
    bodyExample: { reason: 'too low' },
    errors: ['INVALID_TRANSITION', 'CONFLICT'],
    responses: { 200: { description: 'The rejected offer', schema: offerResponse, example: { ...offerExample, status: 'rejected', reason: 'too low', answeredBy: 'seller' } } },
  })
  reject(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof offerIdParams>,
    @Body() body: z.output<typeof rejectOfferBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(auth, params.id, { type: 'reject', party: body.party, reason: body.reason }, { request, reply, ifMatch });
  }

  @Post(':id/counter')
  @HttpCode(200)
  @RequireScope('write:trades')
  @Idempotent()
  @ApiOperation({
    operationId: 'counterOffer',
    versioned: 'if-match',
    summary: 'Counter an offer',
    description: `This offer closes as \`countered\`; the counter-offer (\`counterOfferId\`) opens in the thread from the answering party. ${RULES}`,
    tags: TAGS,
    params: offerIdParams,
    body: counterOfferBody,
    bodyExample: { amount: 420, message: 'meet me at 420?' },
    errors: ['INVALID_TRANSITION', 'CONFLICT'],
    responses: { 200: { description: 'The countered offer', schema: offerResponse, example: { ...offerExample, status: 'countered', counterOfferId: 'ofr_01K8Z3Q4V5W6X7Y8Z9A0B1C2D4', answeredBy: 'seller' } } },
  })
  counter(
    @Auth() auth: AuthContext,
    @Param() params: z.output<typeof offerIdParams>,
    @Body() body: z.output<typeof counterOfferBody>,
    @Req() request: FastifyRequest,
    @IfMatch() ifMatch: number | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(auth, params.id, { type: 'counter', party: body.party, amountMinor: toMinor(body.amount), message: body.message }, { request, reply, ifMatch });
  }

  private async answer(auth: AuthContext, id: string, answer: OfferAnswer, http: { request: FastifyRequest; reply: FastifyReply; ifMatch?: number }): Promise<OfferResponse> {
    const offer = await this.commands.execute(new AnswerOfferCommand(auth.workspaceId, auth.keyId, id, answer, String(http.request.id), http.ifMatch));
    setETag(http.reply, offer.revision);
    return this.queries.execute(new AnswerFromOfferQuery(auth.workspaceId, offer));
  }
}
