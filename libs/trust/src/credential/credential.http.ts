// HTTP: /api/v1/trust, the public side of seller trust (no API key): the credential in either form,
// the inputs its hash covers, the signing keys, the status lists and a verifier. The seller's own
// side is seller/seller-trust.http.ts.
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

import { ApiError, ApiOperation, Public } from '@app/platform';

import { ListSigningKeysQuery } from '../keys/keys.queries';
import { sellerParams } from '../seller/seller-trust.schemas';
import { GetCredentialInputsQuery, GetServedCredentialQuery } from '../seller/seller-trust.queries';
import { GetStatusListQuery, VerifyCredentialQuery } from './credential.queries';
import {
  credentialExample,
  credentialQuery,
  credentialResponse,
  listParams,
  publicKeyExample,
  publicKeyResponse,
  verifyBody,
  verifyExample,
  verifyResponse,
} from './credential.schemas';

const TAGS = ['Trust'];
const VC_MEDIA_TYPE = 'application/vc+ld+json';
const PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=300';
const CREDENTIAL =
  'A W3C Verifiable Credential (Data Model 2.0) stating the seller\'s trust score, tier and factors, computed from its trades by formula trust-v1, ' +
  'with `inputsHash` (SHA-256 of the canonical inputs document, `GET …/inputs`) and `inputsCount`. ' +
  'Default form: `proof.jws` is the base64url Ed25519 signature of the RFC 8785 (JCS) serialization of `credentialSubject`, ' +
  'which is served with its keys in that order: `JSON.stringify` of the parsed subject is the signed text. It covers the subject only; POST /trust/verify checks the rest against the issuer\'s records. ' +
  'With `?proof=data-integrity` or `Accept: application/vc+ld+json`: a `DataIntegrityProof` (cryptosuite `eddsa-jcs-2022`) over the whole credential, which stock verifiers accept. ' +
  'Keys: `GET /trust/public-key`. Status: `credentialStatus` names a Bitstring Status List. A seller has a credential once one of its trades completed; before, 404.';

@Controller('api/v1/trust')
export class TrustController {
  constructor(private readonly queries: QueryBus) {}

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
    const served = await this.queries.execute(new GetServedCredentialQuery(params.slug, dataIntegrity ? 'data-integrity' : 'spec'));
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
    const { body, etag } = await this.queries.execute(new GetCredentialInputsQuery(params.slug));
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
    const keys = await this.queries.execute(new ListSigningKeysQuery());
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
    const list = await this.queries.execute(new GetStatusListQuery(params.listId));
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
      'Checks a credential (either form) against what this service issued — the whole envelope, not only what the signature covers (the jws covers `credentialSubject` alone): ' +
      '`signature` (jws or data-integrity, with a listed key), `issuer` (this service\'s DID and name), `id` (the credential issued for this subject), ' +
      '`type` (the issued `@context` and `type`, no field it did not issue), `validity` (the period issued, now inside it), ' +
      '`status` (the status entry issued; neither revoked nor superseded beyond the grace period) and `inputs` (the inputs recomputed from the trades hash to `inputsHash`). ' +
      '`valid` only when all pass; a failed check says what was stated and what was issued. A body that is not `{credential: {…}}` is `400 VALIDATION_FAILED`.',
    tags: TAGS,
    body: verifyBody,
    bodyExample: { credential: credentialExample },
    responses: { 200: { description: 'The verdict and each check', schema: verifyResponse, example: verifyExample } },
  })
  async verify(@Body() body: z.output<typeof verifyBody>): Promise<z.output<typeof verifyResponse>> {
    return this.queries.execute(new VerifyCredentialQuery(body.credential));
  }
}
