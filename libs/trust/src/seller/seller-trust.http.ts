// HTTP: /api/v1/trust, the seller's own side of trust (its API key): its score, and revoking and
// reinstating its credential. Its badge and QR scan counts: scan/scan.http.ts.
import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiError, ApiOperation, APP_CONFIG, type AppConfig, Auth, type AuthContext, Idempotent, ProjectionRunner, RequireScope } from '@app/platform';

import { type FlagOutcome, ReinstateSellerTrustCommand, RevokeSellerTrustCommand } from './seller-trust.handlers';
import { TRUST_PROJECTION } from './seller-trust.projection';
import { GetSellerTrustQuery, SellerSlugQuery } from './seller-trust.queries';
import { revokeBody, trustFlagExample, trustFlagResponse, trustScoreExample, trustScoreResponse } from './seller-trust.schemas';

const TAGS = ['Trust'];

@Controller('api/v1/trust')
export class TrustSellerController {
  private readonly logger = new Logger('trust');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly projections: ProjectionRunner,
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
    const seller = await this.queries.execute(new GetSellerTrustQuery(auth.workspaceId));
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
    return this.answer(auth.workspaceId, await this.commands.execute(new RevokeSellerTrustCommand(auth.workspaceId, 'seller', body.reason, auth.keyId, String(request.id))));
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
    return this.answer(auth.workspaceId, await this.commands.execute(new ReinstateSellerTrustCommand(auth.workspaceId, 'seller', auth.keyId, String(request.id))));
  }

  /**
   * The flag as the seller's trust record holds it after the command. The route promises more than
   * the record: the status list, the badge and the score say so from the answer on, and they are
   * trust's read model, which follows the log asynchronously — so the answer waits for that one
   * projection (by name, never for every read model) to reach the record's last event.
   */
  private async answer(workspaceId: string, outcome: FlagOutcome): Promise<z.output<typeof trustFlagResponse>> {
    const [slug] = await Promise.all([this.queries.execute(new SellerSlugQuery(workspaceId)), this.shown(outcome.position)]);
    return { sellerId: workspaceId, slug, credentialId: outcome.credentialId, flag: outcome.flag };
  }

  private async shown(position: number | null): Promise<void> {
    if (position === null) return;
    const ok = await this.projections.waitFor(position, this.config.READ_YOUR_WRITES_TIMEOUT_MS, [TRUST_PROJECTION]);
    // Recorded either way: the status list follows as soon as the read model catches up.
    if (!ok) this.logger.warn(`the trust read model did not reach position ${position} in time`);
  }
}
