// trust: seller trust — the public side (no API key needed: a seller's credential, its inputs, the
// signing keys, the status lists, a verifier) and the seller's own (its score, scans, revoking and
// reinstating its credential). Also the URLs of the embeddable badge, QR code and verification
// page, which are HTML and SVG for browsers, not JSON: built here, never fetched.
import type { PagePromise } from '../core/pagination';
import type {
  CredentialVerification,
  TrustCredential,
  TrustCredentialParams,
  TrustFlag,
  TrustPublicKey,
  TrustRevokeParams,
  TrustScanDay,
  TrustScanListParams,
  TrustScans,
  TrustScore,
  TrustStatusList,
  TrustVerifyParams,
} from '../types';
import { encodePath, type Transport } from '../core/transport';
import { type RequestOptions, Resource } from './resource';

export class Trust extends Resource {
  constructor(
    transport: Pick<Transport, 'request'>,
    /** The server's origin and path prefix, without /api/v1 (where /api/embed and /verify are). */
    private readonly siteUrl: string,
  ) {
    super(transport);
  }

  /**
   * GET /trust/credential/{slug} (public): the seller's W3C Verifiable Credential; `proof:
   * 'data-integrity'` for the DataIntegrityProof form. `NotFoundError` before its first completed trade.
   */
  credential(slug: string, query?: TrustCredentialParams, options?: RequestOptions): Promise<TrustCredential> {
    return this.call('/api/v1/trust/credential/{slug}', 'get', { path: { slug }, query }, options);
  }

  /**
   * GET /trust/credential/{slug}/inputs (public): the canonical inputs document, as text — byte
   * for byte what the credential's `inputsHash` (SHA-256) covers, so hash it as it is.
   */
  inputs(slug: string, options?: RequestOptions): Promise<string> {
    return this.callText('/api/v1/trust/credential/{slug}/inputs', { path: { slug } }, options);
  }

  /** GET /trust/public-key (public): the active signing key, and every key a valid credential may name. */
  publicKey(options?: RequestOptions): Promise<TrustPublicKey> {
    return this.call('/api/v1/trust/public-key', 'get', {}, options);
  }

  /** GET /trust/status/{listId} (public): a Bitstring Status List credential (the server documents no schema: a JSON object). */
  async statusList(listId: string, options?: RequestOptions): Promise<TrustStatusList> {
    // Typed `undefined` while the document has no schema for it: when it gets one, this fails to compile — use it then.
    const answer: undefined = await this.call('/api/v1/trust/status/{listId}', 'get', { path: { listId } }, options);
    return answer as unknown as TrustStatusList;
  }

  /**
   * POST /trust/verify (public): checks a credential (either form) against what the service issued —
   * signature, issuer, id, type, validity, status, inputs; `valid` only when all pass.
   */
  verify(body: TrustVerifyParams, options?: RequestOptions): Promise<CredentialVerification> {
    return this.call('/api/v1/trust/verify', 'post', { body }, options);
  }

  /** GET /trust/score: your score, tier and factors. `NotFoundError` before your first completed trade. */
  score(options?: RequestOptions): Promise<TrustScore> {
    return this.call('/api/v1/trust/score', 'get', {}, options);
  }

  /**
   * GET /trust/scans: your badge and QR scans per UTC day, in `from`..`to`. One answer (not
   * cursor-paged), as a single page like every list: the days are its items, `page.raw` has
   * `from`, `to` and `total`.
   */
  listScans(query?: TrustScanListParams, options?: RequestOptions): PagePromise<TrustScanDay, TrustScans> {
    return this.singlePage('/api/v1/trust/scans', { query }, options);
  }

  /** POST /trust/credential/revoke `{ reason }`: flags your credentials as revoked until you reinstate. */
  revoke(body: TrustRevokeParams, options?: RequestOptions): Promise<TrustFlag> {
    return this.call('/api/v1/trust/credential/revoke', 'post', { body }, options);
  }

  /** POST /trust/credential/reinstate: lifts your own flag (an operator's is `ConflictError`). */
  reinstate(options?: RequestOptions): Promise<TrustFlag> {
    return this.call('/api/v1/trust/credential/reinstate', 'post', {}, options);
  }

  // ——— URLs for browsers (nothing is fetched) ———

  /** The seller's SVG badge, `/api/embed/trust-badge/{slug}`; link it to `scanUrl(slug)`. */
  badgeUrl(slug: string, options: { theme?: 'light' | 'dark' } = {}): string {
    return siteLink(this.siteUrl, encodePath`/api/embed/trust-badge/${slug}`, options.theme === undefined ? {} : { theme: options.theme });
  }

  /** A printable SVG QR code to the seller's verification page, `/api/embed/trust-qr/{slug}`. */
  qrCodeUrl(slug: string): string {
    return siteLink(this.siteUrl, encodePath`/api/embed/trust-qr/${slug}`);
  }

  /** The tracked link a badge or QR code leads to (counts the scan, then redirects to the verification page). */
  scanUrl(slug: string, options: { via?: 'badge' | 'qr' } = {}): string {
    return siteLink(this.siteUrl, encodePath`/api/embed/trust-scan/${slug}`, options.via === undefined ? {} : { via: options.via });
  }

  /** The seller's verification page (HTML, verifies the credential in the visitor's browser), `/verify/{slug}`. */
  verifyPageUrl(slug: string): string {
    return siteLink(this.siteUrl, encodePath`/verify/${slug}`);
  }
}

function siteLink(siteUrl: string, path: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${siteUrl}${path}${search ? `?${search}` : ''}`;
}
