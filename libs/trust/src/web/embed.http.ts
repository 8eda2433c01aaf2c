// The embeddable side of seller trust, public (no API key): the badge (SVG), a printable QR code
// (SVG), the scan-tracking link both point at — it counts the visit (no IP kept; a visitor's
// repeats within 30 minutes count once) and redirects to the verification page — and that page,
// which checks the credential in the visitor's own browser. Embeds are loaded from other sites,
// so their answers say `Cross-Origin-Resource-Policy: cross-origin`.
import { createHash } from 'node:crypto';

import { Controller, Get, Headers, HttpCode, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { ApiError, ApiOperation, APP_CONFIG, type AppConfig, Public } from '@app/platform';

import { RecordScanCommand } from '../scan/scan.handlers';
import { publicBaseUrl } from '../seller/seller-trust.issuer';
import { FindSellerTrustBySlugQuery } from '../seller/seller-trust.queries';
import { sellerParams } from '../seller/seller-trust.schemas';
import { badgeSvg } from './badge';
import { badgeQuery, scanQuery, verifyAssetParams } from './embed.schemas';
import { qrSvg } from './qr';
import { VERIFY_PAGE_CSS, VERIFY_PAGE_SCRIPT, verifyPageHtml } from './verify-page';

const TAGS = ['Trust embeds'];
const EMBED_CACHE = 'public, max-age=300, stale-while-revalidate=3600';

@Controller()
export class TrustEmbedController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('api/embed/trust-badge/:slug')
  @Public()
  @ApiOperation({
    operationId: 'getTrustBadge',
    summary: 'A seller\'s trust badge (SVG, public)',
    description: 'An accessible SVG (role img, a title naming the seller, score and tier) showing the score or "New seller"; light or dark. Link it to `/api/embed/trust-scan/<slug>` (see the README snippet).',
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
    const seller = await this.queries.execute(new FindSellerTrustBySlugQuery(params.slug));
    if (!seller) throw new ApiError(404, 'NOT_FOUND', `No trust badge for seller ${params.slug}: a seller has one once a trade of theirs has completed`, { slug: params.slug });
    const subject = seller.credential.subject;
    const theme = query.theme ?? 'light';
    const etag = `"${seller.credential.credentialId.slice('urn:uuid:'.length)}-${theme}${seller.flag ? '-flagged' : ''}"`;
    embedHeaders(reply, 'image/svg+xml', etag);
    if (ifNoneMatch === etag) {
      void reply.status(304);
      return '';
    }
    return badgeSvg({ sellerName: subject.seller.name, slug: subject.seller.slug, score: seller.flag ? null : subject.score, tier: seller.flag ? 'revoked' : subject.tier, theme });
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
    const seller = await this.queries.execute(new FindSellerTrustBySlugQuery(params.slug));
    if (!seller) throw ApiError.notFound('seller', params.slug);
    const url = `${publicBaseUrl(this.config)}/api/embed/trust-scan/${seller.slug}?via=qr`;
    embedHeaders(reply, 'image/svg+xml', `"${createHash('sha256').update(url).digest('base64url').slice(0, 16)}"`);
    return qrSvg(url, { label: `Verify ${seller.credential.subject.seller.name}` });
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
    const seller = await this.queries.execute(new FindSellerTrustBySlugQuery(params.slug));
    if (!seller) throw ApiError.notFound('seller', params.slug);
    await this.commands.execute(new RecordScanCommand(seller.id, request.ip, query.via ?? 'badge', referer));
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
  page(@Param() params: z.output<typeof sellerParams>, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'public, max-age=300');
    return verifyPageHtml({ slug: params.slug });
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
    .header('Cross-Origin-Resource-Policy', 'cross-origin');
}
