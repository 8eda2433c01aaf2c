// The embeddable side of seller trust, public (no API key): the badge (SVG), a printable QR code
// (SVG), the scan-tracking link both point at — it counts the visit (no IP kept; a visitor's
// repeats within 30 minutes count once) and redirects to the verification page — and that page,
// which checks the credential in the visitor's own browser. Embeds are loaded from other sites,
// so their answers say `Cross-Origin-Resource-Policy: cross-origin`, and may be framed by any page
// (an <object>): their CSP allows any ancestor, loads nothing, and they carry no X-Frame-Options.
// A seller (a workspace) with no completed trade yet has no credential: its badge says "New
// seller" (vouching for nothing), its QR code and scan link work, and its verification page says
// there is nothing to verify yet. A slug no workspace has is 404 everywhere but the page (which
// says it found no credential): a badge never names a seller the service does not know.
import { createHash } from 'node:crypto';

import { Controller, Get, Headers, HttpCode, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { WorkspaceDirectory } from '@app/access';
import { ApiError, ApiOperation, APP_CONFIG, type AppConfig, Public } from '@app/platform';

import { RecordScanCommand } from '../scan/scan.handlers';
import { publicBaseUrl } from '../seller/seller-trust.issuer';
import type { SellerDoc } from '../seller/seller-trust.projection';
import { FindSellerTrustBySlugQuery } from '../seller/seller-trust.queries';
import { sellerParams } from '../seller/seller-trust.schemas';
import { badgeSvg } from './badge';
import { badgeQuery, scanQuery, verifyAssetParams } from './embed.schemas';
import { qrSvg } from './qr';
import { VERIFY_PAGE_CSS, VERIFY_PAGE_SCRIPT, verifyPageHtml } from './verify-page';

const TAGS = ['Trust embeds'];
const EMBED_CACHE = 'public, max-age=300, stale-while-revalidate=3600';
/** An embed loads nothing and may be framed by any page (an <object> on the seller's site). */
export const EMBED_CSP = "default-src 'none'; frame-ancestors *";
/** Bumped when the badge's drawing changes, so a browser's copy under an old ETag is not kept. */
const BADGE_FORMAT = 'b2';

/** A seller as the embeds know it: its trust document (null before its first completed trade), else its workspace. */
type EmbedSeller = { workspaceId: string; slug: string; name: string; trust: SellerDoc | null };

@Controller()
export class TrustEmbedController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly workspaces: WorkspaceDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The seller of a slug: with a credential, or a workspace without one yet; null when no workspace has the slug. */
  private async sellerOf(slug: string): Promise<EmbedSeller | null> {
    const trust = await this.queries.execute(new FindSellerTrustBySlugQuery(slug));
    if (trust) return { workspaceId: trust.id, slug: trust.slug, name: trust.credential.subject.seller.name, trust };
    const workspace = await this.workspaces.bySlug(slug);
    return workspace ? { workspaceId: workspace.id, slug: workspace.slug, name: workspace.name, trust: null } : null;
  }

  /** Where the badge leads: the scan-tracking link, which counts the click and redirects to the verification page. */
  private scanUrl(slug: string, via: 'badge' | 'qr'): string {
    return `${publicBaseUrl(this.config)}/api/embed/trust-scan/${encodeURIComponent(slug)}?via=${via}`;
  }

  @Get('api/embed/trust-badge/:slug')
  @Public()
  @ApiOperation({
    operationId: 'getTrustBadge',
    summary: 'A seller\'s trust badge (SVG, public)',
    description:
      'An accessible SVG (a title naming the seller, score and tier) showing the score, or "New seller"; light or dark. ' +
      'The drawing is a link (`<a target="_top">`) to the scan-tracking link `/api/embed/trust-scan/<slug>?via=badge`, which redirects to the verification page: ' +
      'it works pasted inline and embedded with `<object>` (any page may frame it); an `<img>` cannot follow links, so wrap one in `<a href=".../api/embed/trust-scan/<slug>">`. ' +
      'A seller with no completed trade yet gets a "New seller" badge (no score, no check mark: it vouches for nothing); a slug no seller has is `404`.',
    tags: TAGS,
    params: sellerParams,
    query: badgeQuery,
    headers: ['If-None-Match'],
    responses: { 200: { description: 'The badge', schema: z.string(), contentType: 'image/svg+xml' }, 304: { description: 'Not modified' } },
  })
  async badge(
    @Param() params: z.output<typeof sellerParams>,
    @Query() query: z.output<typeof badgeQuery>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const seller = await this.sellerOf(params.slug);
    if (!seller) throw unknownSeller(params.slug);
    const theme = query.theme ?? 'light';
    const href = this.scanUrl(seller.slug, 'badge');
    const { trust } = seller;
    // The credential names the badge (a new one, a new ETag); before it, the workspace and what it is called.
    const version = trust ? `${trust.credential.credentialId.slice('urn:uuid:'.length)}${trust.flag ? '-flagged' : ''}` : `new-${digest(`${seller.workspaceId}|${seller.name}`)}`;
    const etag = `"${BADGE_FORMAT}-${version}-${digest(href)}-${theme}"`;
    embedHeaders(reply, 'image/svg+xml', etag);
    if (ifNoneMatch === etag) {
      void reply.status(304);
      return '';
    }
    if (!trust) return badgeSvg({ sellerName: seller.name, slug: seller.slug, score: null, tier: 'new_seller', theme, href, credential: false });
    const subject = trust.credential.subject;
    return badgeSvg({ sellerName: subject.seller.name, slug: subject.seller.slug, score: trust.flag ? null : subject.score, tier: trust.flag ? 'revoked' : subject.tier, theme, href });
  }

  @Get('api/embed/trust-qr/:slug')
  @Public()
  @ApiOperation({
    operationId: 'getTrustQrCode',
    summary: 'A printable QR code to a seller\'s verification page (SVG, public)',
    description: 'Encodes the scan-tracking link (`/api/embed/trust-scan/<slug>?via=qr`), which redirects to the verification page.',
    tags: TAGS,
    params: sellerParams,
    responses: { 200: { description: 'The QR code', schema: z.string(), contentType: 'image/svg+xml' } },
  })
  async qr(@Param() params: z.output<typeof sellerParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const seller = await this.sellerOf(params.slug);
    if (!seller) throw unknownSeller(params.slug);
    const url = this.scanUrl(seller.slug, 'qr');
    const label = `Verify ${seller.name}`;
    embedHeaders(reply, 'image/svg+xml', `"${digest(`${url}|${label}`)}"`);
    return qrSvg(url, { label });
  }

  @Get('api/embed/trust-scan/:slug')
  @Public()
  @HttpCode(302)
  @ApiOperation({
    operationId: 'followTrustScan',
    summary: 'Follow a badge or QR code to the verification page (public)',
    description: 'Counts the scan (the time, `via`, and the referring page\'s origin; no IP or other personal data kept) and redirects (302) to `/verify/<slug>`.',
    tags: TAGS,
    params: sellerParams,
    query: scanQuery,
    responses: { 302: { description: 'To the verification page' } },
  })
  async scan(
    @Param() params: z.output<typeof sellerParams>,
    @Query() query: z.output<typeof scanQuery>,
    @Headers('referer') referer: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const seller = await this.sellerOf(params.slug);
    if (!seller) throw unknownSeller(params.slug);
    await this.commands.execute(new RecordScanCommand(seller.workspaceId, request.ip, query.via ?? 'badge', referer));
    void reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').redirect(`/verify/${encodeURIComponent(seller.slug)}`, 302);
  }

  @Get('verify/:slug')
  @Public()
  @ApiOperation({
    operationId: 'getTrustVerificationPage',
    summary: 'A seller\'s verification page (HTML, public)',
    description: 'Fetches the credential, the keys, the inputs and the status list, and verifies the signature (WebCrypto Ed25519), the inputs hash, the validity period and the status in the visitor\'s browser, showing each check and the factors.',
    tags: TAGS,
    params: sellerParams,
    responses: { 200: { description: 'The page', schema: z.string(), contentType: 'text/html' } },
  })
  async page(@Param() params: z.output<typeof sellerParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'public, max-age=300');
    // The page checks the credential itself; it is told only whether this is a seller without one
    // yet, so that it can say so instead of "not verified" (it looks for a credential first anyway).
    const seller = await this.sellerOf(params.slug);
    return verifyPageHtml({ slug: params.slug, newSeller: seller && !seller.trust ? { name: seller.name } : null });
  }

  @Get('verify/assets/:file')
  @Public()
  @ApiOperation({
    operationId: 'getTrustVerificationAsset',
    summary: 'The verification page\'s script or stylesheet',
    tags: TAGS,
    params: verifyAssetParams,
    responses: { 200: { description: 'JavaScript or CSS' } },
  })
  asset(@Param() params: z.output<typeof verifyAssetParams>, @Res({ passthrough: true }) reply: FastifyReply): string {
    const script = params.file === 'verify.js';
    void reply.header('Content-Type', `${script ? 'text/javascript' : 'text/css'}; charset=utf-8`).header('Cache-Control', 'public, max-age=3600');
    return script ? VERIFY_PAGE_SCRIPT : VERIFY_PAGE_CSS;
  }
}

function embedHeaders(reply: FastifyReply, contentType: string, etag: string): void {
  void reply
    .header('Content-Type', `${contentType}; charset=utf-8`)
    .header('Cache-Control', EMBED_CACHE)
    .header('ETag', etag)
    .header('Cross-Origin-Resource-Policy', 'cross-origin')
    .header('Content-Security-Policy', EMBED_CSP);
  // Any page may frame an embed (an <object>): the CSP's frame-ancestors says so, and the
  // X-Frame-Options every answer carries would forbid it.
  reply.removeHeader('x-frame-options');
}

function unknownSeller(slug: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `No seller ${slug}: check the slug in the embed (it is the seller's workspace slug)`, { slug });
}

const digest = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, 16);
