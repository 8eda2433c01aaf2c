// @app/trust — the seller trust context's contract. Everything else in this library is its own
// business.

export { TrustModule } from './trust.module';

// What the CLI asks of trust: the signing keys (rotate), flags (revoke, reinstate) and the audit,
// and the seller lookup by slug they start from.
export { TrustKeyring } from './keys/trust-keyring';
export { TrustFlags } from './trust.flags';
export { type AuditReport, TrustAudit } from './trust.audit';
export { TrustReads } from './trust.reads';

// Public events (webhooks): catalogue entries and their data.
export { TRUST_PUBLIC_EVENTS } from './trust.public';
