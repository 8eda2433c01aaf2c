// HTTP: /api/v1/trust, the seller's own side of trust (its API key): its score, its badge and QR
// scan counts, and revoking and reinstating its credential.
import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiError, ApiOperation, APP_CONFIG, type AppConfig, Auth, type AuthContext, CLOCK, type Clock, Idempotent, ProjectionRunner, RequireScope } from '@app/platform';

import { type FlagOutcome, TrustFlags } from './trust.flags';
import { TRUST_PROJECTION } from './seller/seller-trust.projection';
import { TrustReads } from './trust.reads';
import {
  revokeBody,
  scansExample,
  scansQuery,
  scansResponse,
  trustFlagExample,
  trustFlagResponse,
  trustScoreExample,
  trustScoreResponse,
} from './trust.schemas';

const TAGS = ['Trust'];

@Controller('api/v1/trust')
export class TrustSellerController {
  private readonly logger = new Logger('trust');

  constructor(
    private readonly reads: TrustReads,
    private readonly flags: TrustFlags,
    private readonly projections: ProjectionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('score')
  @RequireScope('read:trades')
  @ApiOperation({
    operationId: 'getTrustScore',
    summary: 'Your trust score',
    description: 'The score, tier and factors of your current credential, and its flag when revoked. 404 before your first completed trade.',
    tags: TAGS,
    responses: { 200: { description: 'Your trust score', schema: trustScoreResponse, example: trustScoreExample } },
  })
  async score(@Auth() auth: AuthContext): Promise<z.output<typeof trustScoreResponse>> {
    const seller = await this.reads.seller(auth.workspaceId);
    if (!seller) throw new ApiError(404, 'NOT_FOUND', 'No trust score yet: a seller has one once a trade of theirs has completed');
    const c = seller.credential;
    return {
      sellerId: seller.id,
      slug: seller.slug,
      score: c.subject.score,
      tier: c.subject.tier,
      factors: c.subject.factors,
      inputsCount: c.subject.inputsCount,
      credentialId: c.credentialId,
      issuedAt: c.issuedAt,
      validUntil: c.validUntil,
      flag: seller.flag,
    };
  }

  @Post('credential/revoke')
  @RequireScope('admin')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'revokeTrustCredential',
    summary: 'Revoke your trust credential',
    description:
      'Flags your credentials as revoked (the status list says so at once) and stops issuing new ones until you reinstate. Revoking again is a no-op; ' +
      'revoking again with another reason than the one recorded is `409 CONFLICT` (details: `field`, `recorded`, `given`).',
    tags: TAGS,
    body: revokeBody,
    bodyExample: { reason: 'our account was compromised' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    responses: {
      200: {
        description: 'Your flag',
        schema: trustFlagResponse,
        example: { ...trustFlagExample, flag: { by: 'seller' as const, reason: 'our account was compromised', at: '2026-11-25T12:00:00.000Z' } },
      },
    },
  })
  async revoke(@Auth() auth: AuthContext, @Body() body: z.output<typeof revokeBody>, @Req() request: FastifyRequest): Promise<z.output<typeof trustFlagResponse>> {
    return this.answer(auth.workspaceId, await this.flags.revoke(auth.workspaceId, 'seller', body.reason, auth.keyId, String(request.id)));
  }

  @Post('credential/reinstate')
  @RequireScope('admin')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'reinstateTrustCredential',
    summary: 'Lift your revocation',
    description: 'Lifts a flag you set (a flag the service\'s operator set is theirs to lift: 409 CONFLICT); a fresh credential is issued shortly after.',
    tags: TAGS,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'Your flag, lifted (null)', schema: trustFlagResponse, example: trustFlagExample } },
  })
  async reinstate(@Auth() auth: AuthContext, @Req() request: FastifyRequest): Promise<z.output<typeof trustFlagResponse>> {
    return this.answer(auth.workspaceId, await this.flags.reinstate(auth.workspaceId, 'seller', auth.keyId, String(request.id)));
  }

  /**
   * The flag as the seller's trust record holds it after the command. The route promises more than
   * the record: the status list, the badge and the score say so from the answer on, and they are
   * trust's read model, which follows the log asynchronously — so the answer waits for that one
   * projection (by name, never for every read model) to reach the record's last event.
   */
  private async answer(workspaceId: string, outcome: FlagOutcome): Promise<z.output<typeof trustFlagResponse>> {
    const [slug] = await Promise.all([this.reads.slugOf(workspaceId), this.shown(outcome.position)]);
    return { sellerId: workspaceId, slug, credentialId: outcome.credentialId, flag: outcome.flag };
  }

  private async shown(position: number | null): Promise<void> {
    if (position === null) return;
    const ok = await this.projections.waitFor(position, this.config.READ_YOUR_WRITES_TIMEOUT_MS, [TRUST_PROJECTION]);
    // Recorded either way: the status list follows as soon as the read model catches up.
    if (!ok) this.logger.warn(`the trust read model did not reach position ${position} in time`);
  }

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
    const days = await this.reads.scans(auth.workspaceId, from, to);
    const data = days.map((d) => ({ date: d.day, count: d.count, badge: d.badge, qr: d.qr }));
    return { from, to, total: data.reduce((sum, d) => sum + d.count, 0), data };
  }
}
