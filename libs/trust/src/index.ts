// @app/trust — the seller trust context's contract. Everything else in this library is its own
// business.

export { TrustModule } from './trust.module';

// What the CLI asks of trust, through the command and query buses: rotating the signing key,
// flagging a seller and lifting the flag, a seller's trust (its flag) and the audit of its inputs.
export { RotateSigningKeyCommand } from './keys/keys.handlers';
export { ListSigningKeysQuery } from './keys/keys.queries';
export { type FlagOutcome, ReinstateSellerTrustCommand, RevokeSellerTrustCommand } from './seller/seller-trust.handlers';
export { GetSellerTrustQuery } from './seller/seller-trust.queries';
export { type AuditReport, AuditSellerTrustQuery } from './seller/seller-trust-audit.queries';

// Public events (webhooks): catalogue entries and their data.
export { TRUST_PUBLIC_EVENTS } from './seller/seller-trust.public';
