// Seller trust: a score per seller computed from its trades (a projection of trading's events),
// published as a signed W3C Verifiable Credential with its inputs open to audit, a revocation
// registry (Bitstring Status Lists), the signing keys, a badge, a QR code and a verification page.
import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { AccessModule } from '@app/access';
import { DurableTimers, ProcessManagerRunner, type Projection, ProjectionRunner, PublicResponseCache, runView } from '@app/platform';

import { TrustController } from './credential/credential.http';
import { CREDENTIAL_QUERY_HANDLERS, TrustRegistry } from './credential/credential.queries';
import { KEY_COMMAND_HANDLERS } from './keys/keys.handlers';
import { KEY_QUERY_HANDLERS } from './keys/keys.queries';
import { TrustKeyring } from './keys/trust-keyring';
import { SCAN_COMMAND_HANDLERS } from './scan/scan.handlers';
import { TrustScansController } from './scan/scan.http';
import { scanDaysProjection } from './scan/scan.projection';
import { SCAN_QUERY_HANDLERS } from './scan/scan.queries';
import { AuditSellerTrustHandler } from './seller/seller-trust-audit.queries';
import { SELLER_TRUST_COMMAND_HANDLERS } from './seller/seller-trust.handlers';
import { TrustSellerController } from './seller/seller-trust.http';
import { CredentialIssuer, TrustRefs } from './seller/seller-trust.issuer';
import { sellerChangedBy, sellerTrustProjection } from './seller/seller-trust.projection';
import { SELLER_TRUST_QUERY_HANDLERS, SellerTrustReadModel } from './seller/seller-trust.queries';
import { renewalSource, TrustRenewalHandler } from './seller/seller-trust.renewal';
import { TrustScoring } from './seller/seller-trust.scoring';
import { TrustEmbedController } from './web/embed.http';

@Module({
  imports: [CqrsModule, AccessModule],
  // In this order, the routes' order in the OpenAPI document.
  controllers: [TrustController, TrustSellerController, TrustScansController, TrustEmbedController],
  providers: [
    ...SELLER_TRUST_COMMAND_HANDLERS,
    ...SELLER_TRUST_QUERY_HANDLERS,
    AuditSellerTrustHandler,
    ...CREDENTIAL_QUERY_HANDLERS,
    ...KEY_COMMAND_HANDLERS,
    ...KEY_QUERY_HANDLERS,
    ...SCAN_COMMAND_HANDLERS,
    ...SCAN_QUERY_HANDLERS,
    TrustKeyring,
    TrustRefs,
    CredentialIssuer,
    SellerTrustReadModel,
    TrustRegistry,
    TrustScoring,
    TrustRenewalHandler,
  ],
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
    // A seller's new credential or flag is served at once by this process (others: within the
    // cache's TTL). The view stays pure: the runner applies it, then this forgets what it changed.
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
