// HTTP: /api/v1/trust — the public side of seller trust (no API key: the credential in either
// form, the inputs its hash covers, the signing keys, the status lists and a verifier), and the
// seller's own side (its score, its scan counts, revoking and reinstating its credential).
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { ApiError, ApiOperation, Auth, type AuthContext, Idempotent, Public, ReadYourWrites, RequireScope } from '@app/platform';

import { TrustKeyring } from './keys/trust-keyring';
import { TrustFlags } from './trust.flags';
import { TrustReads } from './trust.reads';
import { TrustRegistry } from './trust.registry';
import {
  credentialExample,
  credentialQuery,
  credentialResponse,
  listParams,
  publicKeyExample,
  publicKeyResponse,
  revokeBody,
  scansExample,
  scansQuery,
  scansResponse,
  sellerParams,
  trustFlagExample,
  trustFlagResponse,
  trustScoreExample,
  trustScoreResponse,
  verifyBody,
  verifyExample,
  verifyResponse,
} from './trust.schemas';

const TAGS = ['Trust'];
const VC_MEDIA_TYPE = 'application/vc+ld+json';
const PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=300';
const CREDENTIAL =
  'A W3C Verifiable Credential (Data Model 2.0) stating the seller\'s trust score, tier and factors, computed from its trades by formula trust-v1, ' +
  'with `inputsHash` (SHA-256 of the canonical inputs document, `GET …/inputs`) and `inputsCount`. ' +
  'Default form: `proof.jws` is the base64url Ed25519 signature of the RFC 8785 (JCS) serialization of `credentialSubject`. ' +
  'With `?proof=data-integrity` or `Accept: application/vc+ld+json`: a `DataIntegrityProof` (cryptosuite `eddsa-jcs-2022`) over the whole credential, which stock verifiers accept. ' +
  'Keys: `GET /trust/public-key`. Status: `credentialStatus` names a Bitstring Status List. A seller has a credential once one of its trades completed; before, 404.';

@Controller('api/v1/trust')
export class TrustController {
  constructor(
    private readonly reads: TrustReads,
    private readonly keyring: TrustKeyring,
    private readonly registry: TrustRegistry,
    private readonly flags: TrustFlags,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  @Get('credential/:slug')
  @Public()
  @ApiOperation({
    operationId: 'getTrustCredential',
    summary: 'A seller\'s trust credential (public)',
    description: CREDENTIAL,
    tags: TAGS,
    params: sellerParams,
    query: credentialQuery,
    headers: ['Accept', 'If-None-Match'],
    responses: { 200: { description: 'The current credential (ETag; 304 when unchanged)', schema: credentialResponse, example: credentialExample }, 304: { description: 'Not modified' } },
  })
  async credential(
    @Param() params: z.output<typeof sellerParams>,
    @Query() query: z.output<typeof credentialQuery>,
    @Headers('accept') accept: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const dataIntegrity = query.proof === 'data-integrity' || (query.proof === undefined && (accept ?? '').includes(VC_MEDIA_TYPE));
    const served = await this.reads.credential(params.slug, dataIntegrity ? 'data-integrity' : 'spec');
    void reply
      .header('Content-Type', `${dataIntegrity && (accept ?? '').includes(VC_MEDIA_TYPE) ? VC_MEDIA_TYPE : 'application/json'}; charset=utf-8`)
      .header('Cache-Control', PUBLIC_CACHE)
      .header('ETag', served.etag)
      .header('Vary', 'Accept');
    if (ifNoneMatch === served.etag) {
      void reply.status(304);
      return '';
    }
    return served.body;
  }

  @Get('credential/:slug/inputs')
  @Public()
  @ApiOperation({
    operationId: 'getTrustCredentialInputs',
    summary: 'The inputs of a seller\'s credential (public audit)',
    description:
      'The canonical inputs document (RFC 8785 text) of the current credential: one row per trade outcome — a pseudonymous reference, dates, outcome, who cancelled, how a dispute ended, amount — and no buyer data. ' +
      'SHA-256 of this body is the credential\'s `inputsHash`.',
    tags: TAGS,
    params: sellerParams,
    responses: { 200: { description: 'The inputs document, byte for byte as hashed' } },
  })
  async inputs(@Param() params: z.output<typeof sellerParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { body, etag } = await this.reads.inputs(params.slug);
    void reply.header('Content-Type', 'application/json; charset=utf-8').header('Cache-Control', PUBLIC_CACHE).header('ETag', etag);
    return body;
  }

  @Get('public-key')
  @Public()
  @ApiOperation({
    operationId: 'getTrustPublicKey',
    summary: 'The keys that sign trust credentials (public)',
    description: 'The active Ed25519 key as `publicKey` (base64url of its raw 32 bytes), its `kid`, Multikey and JWK; `keys` lists it and every retired key a still-valid credential may name (rotation keeps old credentials verifying).',
    tags: TAGS,
    responses: { 200: { description: 'The keys', schema: publicKeyResponse, example: publicKeyExample } },
  })
  async publicKey(@Res({ passthrough: true }) reply: FastifyReply): Promise<z.output<typeof publicKeyResponse>> {
    await this.keyring.signingKey();
    const keys = await this.keyring.listed();
    const active = keys.find((k) => k.status === 'active') ?? keys[0];
    void reply.header('Cache-Control', 'public, max-age=300');
    return { kid: active.kid, publicKey: active.publicKey, publicKeyMultibase: active.publicKeyMultibase, jwk: active.jwk, keys };
  }

  @Get('status/:listId')
  @Public()
  @ApiOperation({
    operationId: 'getTrustStatusList',
    summary: 'A seller\'s revocation status list (public)',
    description: 'A Bitstring Status List credential (W3C), signed with eddsa-jcs-2022: bit `statusListIndex` of a credential is set once it is revoked (flagged) or superseded beyond the grace period.',
    tags: TAGS,
    params: listParams,
    responses: { 200: { description: 'The status list credential' } },
  })
  async statusList(@Param() params: z.output<typeof listParams>, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const list = await this.registry.statusList(params.listId);
    if (!list) throw ApiError.notFound('status list', params.listId);
    void reply.header('Cache-Control', 'public, max-age=60');
    return list;
  }

  @Post('verify')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'verifyTrustCredential',
    summary: 'Verify a trust credential (public)',
    description:
      'Checks a credential (either form) against this issuer: `signature` (jws or data-integrity, with a listed key), `validity` (the period issued, now inside it), ' +
      '`status` (neither revoked nor superseded beyond the grace period) and `inputs` (the inputs recomputed from the trades hash to `inputsHash`). `valid` only when all pass.',
    tags: TAGS,
    body: verifyBody,
    bodyExample: { credential: credentialExample },
    responses: { 200: { description: 'The verdict and each check', schema: verifyResponse, example: verifyExample } },
  })
  async verify(@Body() body: z.output<typeof verifyBody>): Promise<z.output<typeof verifyResponse>> {
    return this.registry.verify(body.credential);
  }

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
    description: 'Flags your credentials as revoked (the status list says so at once) and stops issuing new ones until you reinstate. Revoking again is a no-op.',
    tags: TAGS,
    body: revokeBody,
    bodyExample: { reason: 'our account was compromised' },
    errors: ['NOT_FOUND'],
    responses: {
      200: {
        description: 'Your flag',
        schema: trustFlagResponse,
        example: { ...trustFlagExample, flag: { by: 'seller' as const, reason: 'our account was compromised', at: '2026-11-25T12:00:00.000Z' } },
      },
    },
  })
  async revoke(@Auth() auth: AuthContext, @Body() body: z.output<typeof revokeBody>, @Req() request: FastifyRequest): Promise<z.output<typeof trustFlagResponse>> {
    const { position } = await this.flags.revoke(auth.workspaceId, 'seller', body.reason, auth.keyId, String(request.id));
    if (position !== null) await this.readYourWrites.settle(position);
    return this.flagOf(auth.workspaceId);
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
    const { position } = await this.flags.reinstate(auth.workspaceId, 'seller', auth.keyId, String(request.id));
    if (position !== null) await this.readYourWrites.settle(position);
    return this.flagOf(auth.workspaceId);
  }

  private async flagOf(workspaceId: string): Promise<z.output<typeof trustFlagResponse>> {
    const seller = await this.reads.seller(workspaceId);
    const slug = seller?.slug ?? (await this.reads.slugOf(workspaceId));
    return { sellerId: workspaceId, slug, credentialId: seller?.credential.credentialId ?? null, flag: seller?.flag ?? null };
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
    const to = (query.to ? new Date(query.to) : new Date()).toISOString().slice(0, 10);
    const from = (query.from ? new Date(query.from) : new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000)).toISOString().slice(0, 10);
    if (from > to) throw ApiError.validation('from must not be after to', [{ path: 'from', message: 'after `to`' }]);
    const days = await this.reads.scans(auth.workspaceId, from, to);
    const data = days.map((d) => ({ date: d.day, count: d.count, badge: d.badge, qr: d.qr }));
    return { from, to, total: data.reduce((sum, d) => sum + d.count, 0), data };
  }
}
