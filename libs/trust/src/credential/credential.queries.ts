// The revocation registry, read: each seller's Bitstring Status List (W3C Bitstring Status List
// v1.0) — a credential's bit is set once it is revoked (flagged) or superseded beyond the grace
// period — served as a credential signed like the others (eddsa-jcs-2022); and the checks of
// POST /trust/verify: signature, issuer, id, type, validity period, status and inputs hash, each
// against the issuer's own records.
import { gzipSync } from 'node:zlib';

import { Inject, Injectable } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { APP_CONFIG, type AppConfig, CLOCK, type Clock, READ_STORE, type ReadStore } from '@app/platform';

import { TrustKeyring } from '../keys/trust-keyring';
import { sha256Of } from '../score/trust-inputs';
import { publicBaseUrl, statusListPath } from '../seller/seller-trust.issuer';
import { CREDENTIALS, type CredentialDoc } from '../seller/seller-trust.projection';
import { SellerTrustReadModel } from '../seller/seller-trust.queries';
import { checkSignature, type EnvelopeRecord, ISSUER_NAME, VC_CONTEXT, withDataIntegrityProof } from './credential';
import type { VerifyCheckName } from './credential.schemas';
import { controllerOf } from './ed25519';
import { checkId, checkIssuer, checkType, specProofMismatch, statusEntryMismatch } from './envelope';

/** Bits in a list: the specification's minimum (16 KB), for herd privacy. */
export const STATUS_LIST_BITS = 131_072;
const LIST_TTL_MS = 60_000;
const HOUR = 3_600_000;

export interface Check {
  name: VerifyCheckName;
  ok: boolean;
  detail: string;
}

export interface Verification {
  valid: boolean;
  checks: Check[];
  credentialId: string | null;
  seller: string | null;
}

@Injectable()
export class TrustRegistry {
  private readonly lists = new Map<string, { at: number; revoked: string; document: Record<string, unknown> }>();

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keyring: TrustKeyring,
    private readonly sellers: SellerTrustReadModel,
  ) {}

  /** Whether a credential of the registry is revoked now (flagged, or superseded beyond the grace period), and why. */
  revocationOf(doc: CredentialDoc, now = this.clock.now()): string | null {
    if (doc.revokedAt) return `revoked on ${doc.revokedAt}: ${doc.revokedReason ?? 'flagged'}`;
    if (doc.supersededAt) {
      const graceEnd = Date.parse(doc.supersededAt) + this.config.TRUST_SUPERSEDED_GRACE_HOURS * HOUR;
      if (now.getTime() >= graceEnd) return `superseded on ${doc.supersededAt} by a newer credential (its grace period ended ${new Date(graceEnd).toISOString()})`;
    }
    return null;
  }

  /** The seller's status list credential, or null for a seller with none. Cached a minute, or until a bit changes. */
  async statusList(workspaceId: string): Promise<Record<string, unknown> | null> {
    const docs = await this.credentialsOf(workspaceId);
    if (docs.length === 0) return null;
    const now = this.clock.now();
    const revoked = docs.filter((d) => this.revocationOf(d, now) !== null).map((d) => d.statusListIndex);
    const key = revoked.join(',');
    const cached = this.lists.get(workspaceId);
    if (cached && cached.revoked === key && now.getTime() - cached.at < LIST_TTL_MS) return cached.document;
    const bits = Buffer.alloc(STATUS_LIST_BITS / 8);
    for (const index of revoked) if (index < STATUS_LIST_BITS) bits[index >> 3] |= 0x80 >> (index & 7);
    const url = `${publicBaseUrl(this.config)}${statusListPath(workspaceId)}`;
    const signing = await this.keyring.signingKey();
    const created = now.toISOString();
    const document = withDataIntegrityProof(
      {
        '@context': [VC_CONTEXT],
        id: url,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: { id: controllerOf(signing.kid), name: ISSUER_NAME },
        validFrom: created,
        validUntil: new Date(now.getTime() + 24 * HOUR).toISOString(),
        credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: `u${gzipSync(bits).toString('base64url')}` },
      },
      signing.kid,
      created,
      signing.secretKey,
    );
    this.lists.set(workspaceId, { at: now.getTime(), revoked: key, document });
    return document;
  }

  /**
   * The checks of a credential presented for verification, each against what this service issued:
   * its signature, then the envelope the spec form's jws does not cover (issuer, id, type), its
   * period, its status entry and revocation, and its inputs.
   */
  async verify(credential: Record<string, unknown>): Promise<Verification> {
    const keys = await this.keyring.listed();
    const signature = checkSignature(credential, (kid) => {
      const key = keys.find((k) => k.kid === kid);
      return key ? new Uint8Array(Buffer.from(key.publicKey, 'base64url')) : null;
    });
    const subject = isObject(credential.credentialSubject) ? credential.credentialSubject : {};
    const credentialId = typeof subject.credentialId === 'string' ? subject.credentialId : typeof credential.id === 'string' ? credential.id : null;
    const record = credentialId ? await this.reads.collection<CredentialDoc>(CREDENTIALS).get(credentialId) : null;
    const seller = isObject(subject.seller) && typeof subject.seller.slug === 'string' ? subject.seller.slug : null;
    const type: Check = { name: 'type', ...checkType(credential) };
    if (!record) {
      const detail = `no credential ${credentialId ?? '(without an id)'} was issued by this service`;
      const unknown = (name: Check['name']): Check => ({ name, ok: false, detail });
      const checks: Check[] = [{ name: 'signature', ok: signature.ok, detail: signature.detail }, unknown('issuer'), unknown('id'), type, unknown('validity'), unknown('status'), unknown('inputs')];
      return { valid: false, checks, credentialId, seller };
    }
    const issued = envelopeOf(record);
    const proofMismatch = signature.ok && signature.form === 'spec' ? specProofMismatch(credential, issued) : null;
    const now = this.clock.now();
    const checks: Check[] = [
      { name: 'signature', ok: signature.ok && proofMismatch === null, detail: proofMismatch ?? signature.detail },
      { name: 'issuer', ...checkIssuer(credential, issued) },
      { name: 'id', ...checkId(credential, { ...issued, workspaceId: record.workspaceId }) },
      type,
      this.validity(credential, record, now),
      this.status(credential, record, issued, now),
      await this.inputs(subject, record),
    ];
    return { valid: checks.every((c) => c.ok), checks, credentialId, seller };
  }

  /** Every credential of a seller's, in index order. */
  async credentialsOf(workspaceId: string): Promise<CredentialDoc[]> {
    return (await this.reads.collection<CredentialDoc>(CREDENTIALS).find({ workspaceId }, { sort: [['statusListIndex', 1]], limit: STATUS_LIST_BITS })).items;
  }

  private validity(credential: Record<string, unknown>, record: CredentialDoc, now: Date): Check {
    if (credential.validFrom !== record.issuedAt || credential.validUntil !== record.validUntil) {
      return { name: 'validity', ok: false, detail: `the period stated (${String(credential.validFrom)} – ${String(credential.validUntil)}) is not the one issued` };
    }
    if (now.getTime() < Date.parse(record.issuedAt)) return { name: 'validity', ok: false, detail: `not valid before ${record.issuedAt}` };
    if (now.getTime() >= Date.parse(record.validUntil)) return { name: 'validity', ok: false, detail: `expired on ${record.validUntil}` };
    return { name: 'validity', ok: true, detail: `valid from ${record.issuedAt} until ${record.validUntil}` };
  }

  private status(credential: Record<string, unknown>, record: CredentialDoc, issued: EnvelopeRecord, now: Date): Check {
    const mismatch = statusEntryMismatch(credential, issued);
    if (mismatch) return { name: 'status', ok: false, detail: mismatch };
    const revocation = this.revocationOf(record, now);
    return {
      name: 'status',
      ok: revocation === null,
      detail: revocation ?? (record.supersededAt ? `superseded on ${record.supersededAt}, still within its grace period` : 'not revoked (the current credential)'),
    };
  }

  private async inputs(subject: Record<string, unknown>, record: CredentialDoc): Promise<Check> {
    if (subject.inputsHash !== record.inputsHash) return { name: 'inputs', ok: false, detail: 'the inputsHash stated is not the one issued' };
    const text = await this.sellers.inputsText(record);
    const hash = sha256Of(text);
    return hash === record.inputsHash
      ? { name: 'inputs', ok: true, detail: `the inputs recomputed from the trades hash to ${hash}` }
      : { name: 'inputs', ok: false, detail: `the inputs recomputed from the trades hash to ${hash}, not ${record.inputsHash}` };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The envelope a registry record says was issued. */
const envelopeOf = (record: CredentialDoc): EnvelopeRecord => ({
  credentialId: record.id,
  issuedAt: record.issuedAt,
  validUntil: record.validUntil,
  kid: record.kid,
  statusListCredential: record.statusListCredential,
  statusListIndex: record.statusListIndex,
});

/** A seller's status list credential (the list id is the seller's workspace id); null for a seller with none. */
export class GetStatusListQuery extends Query<Record<string, unknown> | null> {
  constructor(readonly listId: string) {
    super();
  }
}

@QueryHandler(GetStatusListQuery)
export class GetStatusListHandler implements IQueryHandler<GetStatusListQuery> {
  constructor(private readonly registry: TrustRegistry) {}

  execute({ listId }: GetStatusListQuery): Promise<Record<string, unknown> | null> {
    return this.registry.statusList(listId);
  }
}

/** The checks of a credential presented for verification (POST /trust/verify): a read, nothing recorded. */
export class VerifyCredentialQuery extends Query<Verification> {
  constructor(readonly credential: Record<string, unknown>) {
    super();
  }
}

@QueryHandler(VerifyCredentialQuery)
export class VerifyCredentialHandler implements IQueryHandler<VerifyCredentialQuery> {
  constructor(private readonly registry: TrustRegistry) {}

  execute({ credential }: VerifyCredentialQuery): Promise<Verification> {
    return this.registry.verify(credential);
  }
}

export const CREDENTIAL_QUERY_HANDLERS = [GetStatusListHandler, VerifyCredentialHandler];
