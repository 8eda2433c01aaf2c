// The envelope checks of POST /trust/verify: a credential as issued passes each, in either form;
// each change to what the spec form's jws does not cover — issuer, id, type, @context, status
// entry, an added field, the proof's own fields — fails exactly the check that names it.
import { type CredentialForm, type CredentialRecord, credentialDocument, signCredential } from './credential';
import { keyForms, publicKeyOf } from './ed25519';
import { checkId, checkIssuer, checkType, specProofMismatch, statusEntryMismatch } from './envelope';

const secretKey = new Uint8Array(32).fill(3);
const forms = keyForms(publicKeyOf(secretKey));
const other = keyForms(publicKeyOf(new Uint8Array(32).fill(4)));
const CREDENTIAL_ID = 'urn:uuid:7d0c2a52-8c43-4a8e-9a51-1f0b3c9e2d11';
const LIST = 'https://trust.example/api/v1/trust/status/ws_1';
const unsigned: Omit<CredentialRecord, 'jws' | 'proofValue'> = {
  credentialId: CREDENTIAL_ID,
  issuedAt: '2026-11-24T12:00:00.000Z',
  validUntil: '2027-02-22T12:00:00.000Z',
  kid: forms.kid,
  subject: {
    type: 'SellerTrustScore',
    credentialId: CREDENTIAL_ID,
    seller: { id: 'ws_1', slug: 'acme', name: 'Acme Cards' },
    score: null,
    tier: 'new_seller',
    formula: 'trust-v1',
    factors: [],
    inputsHash: `sha256:${'cd'.repeat(32)}`,
    inputsCount: 1,
    asOf: '2026-11-24T12:00:00.000Z',
  },
  statusListCredential: LIST,
  statusListIndex: 3,
};
const record: CredentialRecord = { ...unsigned, ...signCredential(unsigned, secretKey) };
const issued = { ...unsigned, workspaceId: 'ws_1' };

type Doc = Record<string, any>;
const doc = (form: CredentialForm): Doc => JSON.parse(JSON.stringify(credentialDocument(record, form)));

/** The envelope checks that fail, by the name POST /trust/verify answers them under. */
function failing(credential: Doc, form: CredentialForm): string[] {
  const failed: string[] = [];
  if (!checkIssuer(credential, issued).ok) failed.push('issuer');
  if (!checkId(credential, issued).ok) failed.push('id');
  if (!checkType(credential).ok) failed.push('type');
  if (statusEntryMismatch(credential, issued) !== null) failed.push('status');
  if (form === 'spec' && specProofMismatch(credential, issued) !== null) failed.push('signature');
  return failed;
}

describe('the envelope checks', () => {
  it.each<CredentialForm>(['spec', 'data-integrity'])('pass the %s form as issued, saying what they found', (form) => {
    const credential = doc(form);
    expect(failing(credential, form)).toEqual([]);
    expect(checkIssuer(credential, issued)).toEqual({ ok: true, detail: `Collectibles Commerce API (${forms.kid.split('#')[0]}), this service` });
    expect(checkId(credential, issued)).toEqual({ ok: true, detail: `${CREDENTIAL_ID}, issued by this service for this subject` });
    expect(checkType(credential)).toEqual({ ok: true, detail: 'VerifiableCredential, SellerTrustCredential, as issued' });
  });

  const cases: Array<[string, (d: Doc) => void, string, RegExp]> = [
    ['the issuer replaced by a name', (d) => (d.issuer = 'Evil Corp'), 'issuer', /^the issuer stated \("Evil Corp"\) is not this service \(did:key:z6Mk/],
    ['the issuer renamed', (d) => (d.issuer.name = 'Evil Corp'), 'issuer', /"name":"Evil Corp"/],
    ['the issuer\'s DID replaced', (d) => (d.issuer.id = other.kid.split('#')[0]), 'issuer', /is not this service/],
    ['the issuer removed', (d) => delete d.issuer, 'issuer', /^the credential names no issuer; this service \(did:key:z6Mk\w+\) issued it$/],
    ['the type changed', (d) => (d.type = ['VerifiableCredential', 'GovernmentIdCredential']), 'type', /^the type stated \(\["VerifiableCredential","GovernmentIdCredential"\]\) is not the one issued/],
    ['a type added', (d) => d.type.push('BankAccountCredential'), 'type', /is not the one issued \(VerifiableCredential, SellerTrustCredential\)$/],
    ['the type removed', (d) => delete d.type, 'type', /^the credential states no type/],
    ['the @context changed', (d) => d['@context'].push('https://evil.example/ctx'), 'type', /^the @context stated/],
    ['a field added', (d) => (d.evidence = [{ type: 'Endorsement', by: 'Evil Corp' }]), 'type', /^the credential carries fields this service did not issue: evidence$/],
    ['the id changed', (d) => (d.id = 'urn:uuid:00000000-0000-4000-8000-000000000000'), 'id', /^the id stated \("urn:uuid:0{8}-.+"\) is not the one issued for this subject \(urn:uuid:7d0c/],
    ['the id removed', (d) => delete d.id, 'id', /^the credential has no id; its subject was issued as urn:uuid:7d0c/],
    ['the status index changed', (d) => Object.assign(d.credentialStatus, { statusListIndex: '4', id: `${LIST}#4` }), 'status', /^the credentialStatus stated .+ is not the one issued \(bit 3 of https:\/\/trust\.example/],
    ['the status list changed', (d) => (d.credentialStatus.statusListCredential = 'https://evil.example/status/1'), 'status', /is not the one issued/],
    ['the status purpose changed', (d) => (d.credentialStatus.statusPurpose = 'suspension'), 'status', /is not the one issued/],
    ['the status entry removed', (d) => delete d.credentialStatus, 'status', /^the credential has no credentialStatus; it was issued with bit 3 of https:\/\/trust\.example/],
  ];

  it.each(cases)('fail on %s, in the check named for it', (_what, mutate, check, detail) => {
    for (const form of ['spec', 'data-integrity'] as const) {
      const credential = doc(form);
      mutate(credential);
      expect([form, failing(credential, form)]).toEqual([form, [check]]);
    }
    const credential = doc('spec');
    mutate(credential);
    const verdict = { issuer: checkIssuer(credential, issued), id: checkId(credential, issued), type: checkType(credential) }[check as 'issuer' | 'id' | 'type'];
    expect(verdict?.detail ?? statusEntryMismatch(credential, issued)).toMatch(detail);
  });

  it('fail the id when the subject names another credential or seller (a record found by the envelope\'s id)', () => {
    const unnamed = doc('spec');
    delete unnamed.credentialSubject.credentialId;
    expect(checkId(unnamed, issued)).toEqual({ ok: false, detail: `the subject does not name credential ${CREDENTIAL_ID}` });
    const elsewhere = doc('spec');
    elsewhere.credentialSubject.seller.id = 'ws_2';
    expect(checkId(elsewhere, issued)).toEqual({ ok: false, detail: `credential ${CREDENTIAL_ID} was issued for another seller` });
  });

  it('hold the spec form\'s unsigned proof fields to the ones issued', () => {
    for (const mutate of [(p: Doc) => (p.created = '2030-01-01T00:00:00.000Z'), (p: Doc) => (p.proofPurpose = 'authentication'), (p: Doc) => (p.type = 'Ed25519Signature2020'), (p: Doc) => (p.note = 'x')]) {
      const credential = doc('spec');
      mutate(credential.proof);
      expect(specProofMismatch(credential, issued)).toMatch(/^the signature verifies, but the proof's fields beside it \(.+\) are not the ones issued$/);
    }
  });

  it('do not throw on values JCS cannot represent', () => {
    const credential = doc('spec');
    credential.issuer = { id: Number.NaN };
    credential.type = [Number.POSITIVE_INFINITY];
    expect(checkIssuer(credential, issued).ok).toBe(false);
    expect(checkType(credential).ok).toBe(false);
  });
});
