// HTTP: GET /api/v1/trust/scans, the seller's own badge and QR scan counts per day (its API key).
import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';

import { ApiError, ApiOperation, Auth, type AuthContext, CLOCK, type Clock, RequireScope } from '@app/platform';

import { ListScanDaysQuery } from './scan.queries';
import { scansExample, scansQuery, scansResponse } from './scan.schemas';

const TAGS = ['Trust'];

@Controller('api/v1/trust')
export class TrustScansController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('scans')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'listTrustScans',
    summary: 'Your badge and QR scans per day',
    description: 'How many visitors followed your badge or QR code to your verification page, per UTC day (a visitor\'s repeats within 30 minutes count once).',
    tags: TAGS,
    query: scansQuery,
    responses: { 200: { description: 'Daily counts', schema: scansResponse, example: scansExample } },
  })
  async scans(@Auth() auth: AuthContext, @Query() query: z.output<typeof scansQuery>): Promise<z.output<typeof scansResponse>> {
    const to = (query.to ? new Date(query.to) : this.clock.now()).toISOString().slice(0, 10);
    const from = (query.from ? new Date(query.from) : new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000)).toISOString().slice(0, 10);
    if (from > to) throw ApiError.validation('from must not be after to', [{ path: 'from', message: 'after `to`' }]);
    const days = await this.queries.execute(new ListScanDaysQuery(auth.workspaceId, from, to));
    const data = days.map((d) => ({ date: d.day, count: d.count, badge: d.badge, qr: d.qr }));
    return { from, to, total: data.reduce((sum, d) => sum + d.count, 0), data };
  }
}
