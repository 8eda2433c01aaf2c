// HTTP: whether a seller's want-list widget works on the page asking — the widget calls it when it
// loads, before the buyer types anything. A slug no seller has is 404 (the embed names the wrong
// seller); a page of an origin the seller did not allow gets `available: false` and the reason.
// Unlike the widget's other routes it is not behind WidgetGate: any page may read this answer (the
// global per-IP limit of public routes applies, the seller's widget quota is not spent), which
// is how the widget can tell a refused page from a network failure — the 403 of the other routes
// carries no CORS headers, so a browser shows the page only that it failed. It says no more than
// those routes' status codes already do: whether this one origin may use the widget.
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { ApiOperation, Public } from '@app/platform';

import { normalizeOrigin } from './origin';
import { sellerSlugParams } from './want-list.schemas';
import { unknownSellerError, WidgetGate } from './widget-gate';

export const widgetAvailabilityResponse = z
  .strictObject({
    seller: z.string().meta({ description: 'The seller slug asked about.' }),
    available: z.boolean().meta({ description: 'Whether the widget works on the page asking (its `Origin`): false when the seller did not allow that origin.' }),
    reason: z
      .enum(['ORIGIN_NOT_ALLOWED'])
      .nullable()
      .meta({ description: 'Why not: `ORIGIN_NOT_ALLOWED`, the page\'s origin is not among the seller\'s allowed origins (`PUT /api/v1/widget/settings`); null when available.' }),
    origin: z.string().nullable().meta({ description: 'The origin the answer is for (the request\'s `Origin`, normalized); null when none was sent.' }),
  })
  .meta({ id: 'WidgetAvailability' });

type WidgetAvailability = z.output<typeof widgetAvailabilityResponse>;

@Controller('api/v1/public/sellers/:slug')
export class WidgetAvailabilityController {
  constructor(private readonly gate: WidgetGate) {}

  @Get('widget')
  @Public()
  @ApiOperation({
    operationId: 'getWidgetAvailability',
    summary: "Whether a seller's want-list widget works on the calling page (public)",
    description:
      'What the widget asks when it loads, before the buyer types: `404 NOT_FOUND` for a slug no seller has (a wrong `data-seller`); ' +
      '`available: false` with `reason: "ORIGIN_NOT_ALLOWED"` when the page\'s origin is not among the seller\'s allowed origins. ' +
      'Readable by any page (CORS open), never cached; limited per IP, not counted against the seller\'s widget limit.',
    tags: ['Widget (public)'],
    params: sellerSlugParams,
    responses: {
      200: {
        description: 'The widget on this page: available, or why not',
        schema: widgetAvailabilityResponse,
        example: { seller: 'acme', available: false, reason: 'ORIGIN_NOT_ALLOWED', origin: 'https://elsewhere.example' },
      },
    },
  })
  async availability(
    @Param() params: z.output<typeof sellerSlugParams>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WidgetAvailability> {
    void reply.header('Cache-Control', 'no-store').header('Vary', 'Origin');
    const workspaceId = await this.gate.workspaceOf(params.slug);
    if (!workspaceId) throw unknownSellerError(params.slug);
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const available = await this.gate.allows(workspaceId, origin);
    return {
      seller: params.slug,
      available,
      reason: available ? null : 'ORIGIN_NOT_ALLOWED',
      origin: origin === undefined ? null : (normalizeOrigin(origin) ?? origin.slice(0, 300)),
    };
  }
}
