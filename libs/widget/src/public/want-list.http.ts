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
import { ApiOperation, ID_GENERATOR, type IdGenerator, Public, toMinor } from '@app/platform';

import { suggestCards } from './card-suggestions';
import {
  cardSuggestionsQuery,
  cardSuggestionsResponse,
  HONEYPOT_FIELD,
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

  @Post('want-list')
  @Public()
  @HttpCode(201)
  @WidgetRoute('submit')
  @ApiOperation({
    operationId: 'submitWantList',
    summary: "Send a want list to a seller (the widget's form; public)",
    description:
      'Each wanted card becomes a buyer request of the seller (`source: "widget"`), checked against the stock at once; the answer carries the match counts. ' +
      'The email (and note) is personal data: sealed with the buyer\'s own key (`buyerId`), never logged nor sent in webhooks, erasable with ' +
      '`DELETE /api/v1/buyers/{id}/personal-data`. At most 16 KB (413). A filled-in hidden `website` field (the honeypot) is answered like a success ' +
      'and creates nothing. Limited per IP (want lists sent) and per seller; CORS open to any page, or to the seller\'s allowed origins.',
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
      return { buyerId, matchCount: 0, requests: body.items.map(() => ({ id: this.ids.next('br'), matchCount: 0 })) };
    }
    const contact = { email: body.email, note: body.note ? body.note : null };
    // The answer is what each creation decided (its id and match count): nothing is read back.
    const requests: Array<{ id: string; matchCount: number }> = [];
    for (const item of body.items) {
      const created = await this.commands.execute(
        new CreateBuyerRequestCommand(
          seller.workspaceId,
          WIDGET_ACTOR,
          {
            cardName: item.cardName,
            setName: item.setName,
            condition: item.condition,
            maxPriceMinor: toMinor(item.maxPrice),
            currency: body.currency ?? 'USD',
            source: 'widget',
            contact,
          },
          String(request.id),
        ),
      );
      requests.push({ id: created.id, matchCount: created.matchCount });
    }
    return { buyerId, matchCount: requests.reduce((sum, r) => sum + r.matchCount, 0), requests };
  }
}

function sellerOf(request: FastifyRequest): WidgetSeller {
  if (!request.widgetSeller) throw new Error('a widget route ran without WidgetGate');
  return request.widgetSeller;
}
