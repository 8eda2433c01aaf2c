// Seller trust: a score per seller computed from its trades (a projection of trading's events),
// published as a signed W3C Verifiable Credential with its inputs open to audit, a revocation
// registry (Bitstring Status Lists), the signing keys, a badge, a QR code and a verification page.
import { Module, type OnModuleInit } from '@nestjs/common';

import { AccessModule } from '@app/access';
import { DurableTimers, ProcessManagerRunner, type Projection, ProjectionRunner, PublicResponseCache, runView } from '@app/platform';

import { TrustEmbedController } from './embed.http';
import { TrustKeyring } from './keys/trust-keyring';
import { scanDaysProjection } from './scan/scan.projection';
import { sellerChangedBy, sellerTrustProjection } from './seller/seller-trust.projection';
import { TrustAudit } from './trust.audit';
import { TrustFlags } from './trust.flags';
import { TrustController } from './trust.http';
import { TrustSellerController } from './trust-seller.http';
import { CredentialIssuer, TrustRefs } from './trust.issuer';
import { TrustReads } from './trust.reads';
import { TrustRegistry } from './trust.registry';
import { TrustScoring } from './trust.scoring';
import { renewalSource, TrustRenewalHandler } from './trust.timers';

@Module({
  imports: [AccessModule],
  controllers: [TrustController, TrustSellerController, TrustEmbedController],
  providers: [TrustKeyring, TrustRefs, CredentialIssuer, TrustScoring, TrustRenewalHandler, TrustRegistry, TrustReads, TrustFlags, TrustAudit],
  exports: [TrustKeyring, TrustFlags, TrustAudit, TrustReads],
})
export class TrustModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    private readonly processManagers: ProcessManagerRunner,
    private readonly timers: DurableTimers,
    private readonly scoring: TrustScoring,
    private readonly renewal: TrustRenewalHandler,
    private readonly cache: PublicResponseCache,
  ) {}

  onModuleInit(): void {
    // A seller's new credential or flag is served at once by this process (others: within the cache's TTL).
    const forget = ({ slug, workspaceId }: { slug: string; workspaceId: string }) => {
      for (const path of [`/api/v1/trust/credential/${slug}`, `/api/embed/trust-badge/${slug}`, `/api/embed/trust-qr/${slug}`, `/api/v1/trust/status/${workspaceId}`]) this.cache.forget(path);
    };
    const trust = sellerTrustProjection;
    const forgetting: Projection = {
      ...trust,
      async apply(event, store) {
        await trust.apply(event, store);
        const seller = await runView(sellerChangedBy(event), store);
        if (seller) forget(seller);
      },
    };
    this.projections.register(forgetting, scanDaysProjection);
    this.processManagers.register(this.scoring);
    this.timers.register(renewalSource);
    this.timers.handle(this.renewal);
  }
}
