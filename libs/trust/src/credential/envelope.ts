// The checks of a presented credential's envelope against the one this service issued: the spec
// form's jws covers credentialSubject only, so everything around it — issuer, id, type, status
// entry, the proof's own fields — is taken from the issuer's registry, never from the presenter.
// (The data-integrity form signs all of it as well; the same checks apply to both forms.) Pure.
import { canonicalJson } from '../score/trust-inputs';
import { CREDENTIAL_TYPES, type EnvelopeRecord, issuedEnvelope, issuerOf, specProofOptions, VC_CONTEXT } from './credential';

export interface EnvelopeVerdict {
  ok: boolean;
  detail: string;
}

type Json = Record<string, unknown>;

/** The top-level fields of a credential as served (either form). */
const FIELDS = ['@context', 'id', 'type', 'issuer', 'validFrom', 'validUntil', 'credentialSubject', 'credentialStatus', 'proof'];

/** What kind of credential it says it is: the issued `@context` and `type`, and no field the issuer did not write. */
export function checkType(credential: Json): EnvelopeVerdict {
  const types = CREDENTIAL_TYPES.join(', ');
  if (!same(credential.type, CREDENTIAL_TYPES)) {
    return fail(credential.type === undefined ? `the credential states no type (issued as ${types})` : `the type stated (${shown(credential.type)}) is not the one issued (${types})`);
  }
  if (!same(credential['@context'], [VC_CONTEXT])) return fail(`the @context stated (${shown(credential['@context'])}) is not the one issued (["${VC_CONTEXT}"])`);
  const extra = Object.keys(credential).filter((k) => !FIELDS.includes(k));
  if (extra.length > 0) return fail(`the credential carries fields this service did not issue: ${extra.join(', ')}`);
  return pass(`${types}, as issued`);
}

/** The issuer: this service's DID (the one of the key the credential was issued with) and name. */
export function checkIssuer(credential: Json, record: EnvelopeRecord): EnvelopeVerdict {
  const issuer = issuerOf(record.kid);
  if (same(credential.issuer, issuer)) return pass(`${issuer.name} (${issuer.id}), this service`);
  if (credential.issuer === undefined) return fail(`the credential names no issuer; this service (${issuer.id}) issued it`);
  return fail(`the issuer stated (${shown(credential.issuer)}) is not this service (${issuer.id}, "${issuer.name}")`);
}

/** The id: the credential this service issued for the subject presented, which names it too. */
export function checkId(credential: Json, record: EnvelopeRecord & { workspaceId: string }): EnvelopeVerdict {
  const subject = isObject(credential.credentialSubject) ? credential.credentialSubject : {};
  const seller = isObject(subject.seller) ? subject.seller.id : undefined;
  if (subject.credentialId !== record.credentialId) return fail(`the subject does not name credential ${record.credentialId}`);
  if (seller !== record.workspaceId) return fail(`credential ${record.credentialId} was issued for another seller`);
  if (credential.id === undefined) return fail(`the credential has no id; its subject was issued as ${record.credentialId}`);
  if (credential.id !== record.credentialId) return fail(`the id stated (${shown(credential.id)}) is not the one issued for this subject (${record.credentialId})`);
  return pass(`${record.credentialId}, issued by this service for this subject`);
}

/** The status entry: the issued bit of the issued list. Null when it is the one issued. */
export function statusEntryMismatch(credential: Json, record: EnvelopeRecord): string | null {
  if (same(credential.credentialStatus, issuedEnvelope(record).credentialStatus)) return null;
  const issued = `bit ${record.statusListIndex} of ${record.statusListCredential}`;
  if (credential.credentialStatus === undefined) return `the credential has no credentialStatus; it was issued with ${issued}`;
  return `the credentialStatus stated (${shown(credential.credentialStatus)}) is not the one issued (${issued})`;
}

/** The spec form's proof fields beside its jws (unsigned: its created, type, purpose and key are the ones issued). Null when they are. */
export function specProofMismatch(credential: Json, record: EnvelopeRecord): string | null {
  const proof = isObject(credential.proof) ? credential.proof : {};
  const { jws: _jws, ...options } = proof;
  return same(options, specProofOptions(record)) ? null : `the signature verifies, but the proof's fields beside it (${shown(options)}) are not the ones issued`;
}

const pass = (detail: string): EnvelopeVerdict => ({ ok: true, detail });
const fail = (detail: string): EnvelopeVerdict => ({ ok: false, detail });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Equal as JSON (key order aside); anything JCS cannot represent is not equal. */
function same(a: unknown, b: unknown): boolean {
  try {
    return a !== undefined && canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** A stated value for a message: its JSON, cut at 120 characters. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
