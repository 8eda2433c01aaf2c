// HTTP: the widget's public routes, no API key — card suggestions for the type-ahead, and the want
// list a buyer sends, which becomes buyer requests (`source: "widget"`) through demand's own
// command on the CommandBus, each matched against the stock at once. Behind WidgetGate (size,
// seller, origin allow-list, per-seller and per-IP limits). The buyer's email is personal data:
// it goes to the command and nowhere else — never into a log line, an error or an event in clear.
import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { BuyerIdOfEmailQuery, CreateBuyerRequestCommand } from '@app/demand';
import { ApiOperation, fromMinor, ID_GENERATOR, type IdGenerator, Public, toMinor } from '@app/platform';

import { suggestCards } from './card-suggestions';
import { resolveWantList } from './want-list-resolve';
import {
  cardSuggestionsQuery,
  cardSuggestionsResponse,
  HONEYPOT_FIELD,
  resolvedWantListResponse,
  resolveWantListBody,
  sellerSlugParams,
  wantListBody,
  wantListExample,
  wantListResponse,
  wantListResponseExample,
} from './want-list.schemas';
import { WidgetGate, WidgetRoute, type WidgetSeller } from './widget-gate';

const TAGS = ['Widget (public)'];
const WIDGET_ACTOR = 'widget';
const WIDGET_ERRORS = ['NOT_FOUND', 'ORIGIN_NOT_ALLOWED', 'RATE_LIMITED'];

@Controller('api/v1/public/sellers/:slug')
@UseGuards(WidgetGate)
export class WantListController {
  private readonly logger = new Logger('widget');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get('card-suggestions')
  @Public()
  @WidgetRoute('suggest')
  @ApiOperation({
    operationId: 'suggestCards',
    summary: "Card names for a seller's want-list widget (public)",
    description:
      'Catalogue card names for what was typed (names starting with it, then names with a word starting with it, then close spellings), ' +
      'each with the sets it was printed in. Limited per IP and per seller; CORS open to any page, or to the seller\'s allowed origins.',
    tags: TAGS,
    params: sellerSlugParams,
    query: cardSuggestionsQuery,
    errors: WIDGET_ERRORS,
    responses: {
      200: { description: 'Up to 10 suggestions', schema: cardSuggestionsResponse, example: { data: [{ cardName: 'Charizard', sets: ['Base Set 2', 'Base'] }] } },
    },
  })
  suggestions(
    @Query() query: z.output<typeof cardSuggestionsQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): z.output<typeof cardSuggestionsResponse> {
    // A browser may keep it a minute; no shared cache (nor the server's copy of public answers,
    // which would skip the gate's origin check and per-seller count).
    void reply.header('Cache-Control', 'private, max-age=60').header('Vary', 'Origin');
    return { data: suggestCards(query.q ?? '') };
  }

  @Post('want-list/resolve')
  @Public()
  @HttpCode(200)
  @WidgetRoute('suggest')
  @ApiOperation({
    operationId: 'resolveWantList',
    summary: "Read a pasted want list against the catalogue, line by line (the widget's preview; public)",
    description:
      'Reads each line of a typed or pasted want list (one card per line: `4 Charizard Base NM`, `Pikachu (Jungle) LP $12`, `Charizard, Base Set, PSA 9, 450 USD`) ' +
      'and resolves it as a buyer request would be (the corrections matching makes: a card name a letter or a space off a card of the set, a set code…), ' +
      'or says why the line cannot be sent. Creates nothing; nothing is kept. Set, condition and price are optional on every line. ' +
      'Limited per IP and per seller; CORS open to any page, or to the seller\'s allowed origins.',
    tags: TAGS,
    params: sellerSlugParams,
    body: resolveWantListBody,
    bodyExample: { text: '4 Charizard Base NM\nPikachu (Jungle) LP $12\nChairzard Base' },
    errors: [...WIDGET_ERRORS, 'PAYLOAD_TOO_LARGE'],
    responses: {
      200: {
        description: 'Each line, resolved or with its error',
        schema: resolvedWantListResponse,
        example: {
          lines: [
            { line: 1, text: '4 Charizard Base NM', status: 'ok', quantity: 4, cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: null, changes: ['expanded "NM" to "Near Mint"'], warnings: [], error: null },
            { line: 2, text: '$12', status: 'error', error: { code: 'NO_CARD_NAME', message: 'No card name on this line' } },
          ],
          extraLines: 0,
        },
      },
    },
  })
  resolve(@Body() body: z.output<typeof resolveWantListBody>): z.output<typeof resolvedWantListResponse> {
    return resolveWantList(body.text, body.currency ?? 'USD');
  }

  @Post('want-list')
  @Public()
  @HttpCode(201)
  @WidgetRoute('submit')
  @ApiOperation({
    operationId: 'submitWantList',
    summary: "Send a want list to a seller (the widget's form; public)",
    description:
      'Each wanted card (up to 25) becomes a buyer request of the seller (`source: "widget"`), checked against the stock at once; the answer carries one result per card, in order ' +
      '(its normalized criteria and match count). Only `cardName` is required: no `setName` is any printing, no `condition` any condition, no `maxPrice` any price. ' +
      'The email (and note) is personal data: sealed with the buyer\'s own key (`buyerId`), never logged nor sent in webhooks, erasable with ' +
      '`DELETE /api/v1/buyers/{id}/personal-data`. At most 16 KB (413). A filled-in hidden `website` field (the honeypot) is answered like a success ' +
      'and creates nothing. Limited per IP and per seller, counting each card of the list; CORS open to any page, or to the seller\'s allowed origins.',
    tags: TAGS,
    params: sellerSlugParams,
    body: wantListBody,
    bodyExample: wantListExample,
    errors: [...WIDGET_ERRORS, 'PAYLOAD_TOO_LARGE'],
    responses: { 201: { description: 'Received', schema: wantListResponse, example: wantListResponseExample } },
  })
  async submit(@Body() body: z.output<typeof wantListBody>, @Req() request: FastifyRequest): Promise<z.output<typeof wantListResponse>> {
    const seller = sellerOf(request);
    const buyerId = await this.queries.execute(new BuyerIdOfEmailQuery(seller.workspaceId, body.email));
    if (body[HONEYPOT_FIELD]) {
      // A bot: it gets what a person would (ids of the right shape, no match), and nothing is kept.
      this.logger.log(`want list for seller ${seller.slug} caught by the honeypot (request ${String(request.id)}): nothing created`);
      const requests = body.items.map((item) => ({
        id: this.ids.next('br'),
        matchCount: 0,
        cardName: item.cardName,
        setName: item.setName ?? null,
        condition: item.condition ?? null,
        maxPrice: item.maxPrice ?? null,
        quantity: item.quantity ?? 1,
      }));
      return { buyerId, matchCount: 0, requests };
    }
    const contact = { email: body.email, note: body.note ? body.note : null };
    // The answer is what each creation decided (its id and match count): nothing is read back.
    const requests: z.output<typeof wantListResponse>['requests'] = [];
    for (const item of body.items) {
      const created = await this.commands.execute(
        new CreateBuyerRequestCommand(
          seller.workspaceId,
          WIDGET_ACTOR,
          {
            cardName: item.cardName,
            setName: item.setName ?? null,
            condition: item.condition ?? null,
            maxPriceMinor: item.maxPrice === undefined || item.maxPrice === null ? null : toMinor(item.maxPrice),
            currency: body.currency ?? 'USD',
            source: 'widget',
            contact,
          },
          String(request.id),
        ),
      );
      const { cardName, setName, condition, maxPriceMinor } = created.criteria;
      requests.push({
        id: created.id,
        matchCount: created.matchCount,
        cardName,
        setName,
        condition,
        maxPrice: maxPriceMinor === null ? null : fromMinor(maxPriceMinor),
        quantity: item.quantity ?? 1,
      });
    }
    return { buyerId, matchCount: requests.reduce((sum, r) => sum + r.matchCount, 0), requests };
  }
}

function sellerOf(request: FastifyRequest): WidgetSeller {
  if (!request.widgetSeller) throw new Error('a widget route ran without WidgetGate');
  return request.widgetSeller;
}
