// The seller trust credential in both forms: the VCDM 2.0 document, both signatures checked here and
// by the independent verifier (test/support/trust-verifier.ts, node:crypto only), and what a change
// does to each: the data-integrity form covers the whole credential, the spec form the subject only.
import { createPrivateKey, createPublicKey, sign as cryptoSign, verify as cryptoVerify } from 'node:crypto';

import { jcs, signatureValid } from '@app/testing/support/trust-verifier';

import {
  checkSignature,
  type CredentialForm,
  type CredentialRecord,
  credentialDocument,
  CREDENTIAL_TYPES,
  ISSUER_NAME,
  signCredential,
  SPEC_PROOF_TYPE,
  unsecuredCredential,
  VC_CONTEXT,
  withDataIntegrityProof,
} from './credential';
import { keyForms, publicKeyOf } from './ed25519';

// RFC 8032 test 1's key, so the signatures are reproducible.
const secretKey = new Uint8Array(Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'));
const forms = keyForms(publicKeyOf(secretKey));
const otherSecret = new Uint8Array(32).fill(7);
const otherForms = keyForms(publicKeyOf(otherSecret));
const keyOf = (kid: string) => (kid === forms.kid ? publicKeyOf(secretKey) : null);
const verifierKeys = [{ kid: forms.kid, publicKey: forms.publicKey }];

const unsigned: Omit<CredentialRecord, 'jws' | 'proofValue'> = {
  credentialId: 'urn:uuid:0b5b8e3c-5f1c-4c59-9a57-3f1f9e1c2a10',
  issuedAt: '2026-11-24T12:00:00.000Z',
  validUntil: '2027-02-22T12:00:00.000Z',
  kid: forms.kid,
  subject: {
    type: 'SellerTrustScore',
    credentialId: 'urn:uuid:0b5b8e3c-5f1c-4c59-9a57-3f1f9e1c2a10',
    seller: { id: 'ws_1', slug: 'acme', name: 'Acme Cards — Zürich' },
    score: 72,
    tier: 'established',
    formula: 'trust-v1',
    factors: [
      { name: 'completion', value: 0.8182, weight: 35, contribution: 28.64, reason: '9 of 11 trades the seller answered for completed' },
      { name: 'tenure', value: 0.2, weight: 5, contribution: 1, reason: '73 days since the first trade (a year counts fully)' },
    ],
    inputsHash: `sha256:${'ab'.repeat(32)}`,
    inputsCount: 13,
    asOf: '2026-11-24T12:00:00.000Z',
  },
  statusListCredential: 'https://api.example.test/trust/status-lists/1',
  statusListIndex: 7,
};
const record: CredentialRecord = { ...unsigned, ...signCredential(unsigned, secretKey) };
const FORMS: CredentialForm[] = ['spec', 'data-integrity'];

type Doc = Record<string, any>;
const doc = (form: CredentialForm): Doc => JSON.parse(JSON.stringify(credentialDocument(record, form)));

describe('the credential document', () => {
  it('is a VCDM 2.0 credential naming its issuer by did:key, its period and its status entry', () => {
    const did = forms.kid.split('#')[0];
    expect(unsecuredCredential(unsigned)).toEqual({
      '@context': [VC_CONTEXT],
      id: unsigned.credentialId,
      type: [...CREDENTIAL_TYPES],
      issuer: { id: did, name: ISSUER_NAME },
      validFrom: '2026-11-24T12:00:00.000Z',
      validUntil: '2027-02-22T12:00:00.000Z',
      credentialSubject: unsigned.subject,
      credentialStatus: {
        id: 'https://api.example.test/trust/status-lists/1#7',
        type: 'BitstringStatusListEntry',
        statusPurpose: 'revocation',
        statusListIndex: '7',
        statusListCredential: 'https://api.example.test/trust/status-lists/1',
      },
    });
    expect(VC_CONTEXT).toBe('https://www.w3.org/ns/credentials/v2');
    expect(CREDENTIAL_TYPES).toEqual(['VerifiableCredential', 'SellerTrustCredential']);
  });

  it('carries the spec form proof (jws) or the eddsa-jcs-2022 DataIntegrityProof', () => {
    expect(doc('spec').proof).toEqual({ type: SPEC_PROOF_TYPE, created: unsigned.issuedAt, verificationMethod: forms.kid, proofPurpose: 'assertionMethod', jws: record.jws });
    expect(SPEC_PROOF_TYPE).toBe('Ed25519CredentialSubjectSignature');
    // The proof may carry the document's @context (the configuration the signature covers has it either way).
    const { '@context': proofContext, ...proof } = doc('data-integrity').proof;
    expect([undefined, JSON.stringify([VC_CONTEXT])]).toContain(proofContext === undefined ? undefined : JSON.stringify(proofContext));
    expect(proof).toEqual({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-jcs-2022',
      created: unsigned.issuedAt,
      verificationMethod: forms.kid,
      proofPurpose: 'assertionMethod',
      proofValue: record.proofValue,
    });
  });
});

describe('the served subject', () => {
  it.each(FORMS)('comes in the %s form with its keys in RFC 8785 order, nested objects too, arrays in their order', (form) => {
    // The record's subject is in the order the issuer's schema writes it (type, credentialId, seller…).
    expect(Object.keys(unsigned.subject)[0]).toBe('type');
    const served = doc(form).credentialSubject;
    expect(JSON.stringify(served)).toBe(jcs(unsigned.subject));
    expect(Object.keys(served)).toEqual(['asOf', 'credentialId', 'factors', 'formula', 'inputsCount', 'inputsHash', 'score', 'seller', 'tier', 'type']);
    expect(Object.keys(served.seller)).toEqual(['id', 'name', 'slug']);
    expect(Object.keys(served.factors[0])).toEqual(['contribution', 'name', 'reason', 'value', 'weight']);
    expect(served.factors.map((f: { name: string }) => f.name)).toEqual(['completion', 'tenure']);
  });

  it('verifies with the interface taken literally: Ed25519 over JSON.stringify of the parsed subject, by the publicKey', () => {
    const served = JSON.parse(JSON.stringify(credentialDocument(record, 'spec')));
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: forms.publicKey }, format: 'jwk' });
    expect(cryptoVerify(null, Buffer.from(JSON.stringify(served.credentialSubject)), publicKey, Buffer.from(served.proof.jws, 'base64url'))).toBe(true);
  });
});

describe('signCredential', () => {
  it('signs deterministically: jws is base64url of 64 bytes, proofValue z + base58btc', () => {
    expect(signCredential(unsigned, secretKey)).toEqual({ jws: record.jws, proofValue: record.proofValue });
    expect(record.jws).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(Buffer.from(record.jws, 'base64url')).toHaveLength(64);
    expect(record.proofValue).toMatch(/^z[1-9A-HJ-NP-Za-km-z]{85,88}$/);
  });

  it('makes the jws node:crypto makes over the JCS of credentialSubject', () => {
    const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: Buffer.from(secretKey).toString('base64url'), x: forms.publicKey }, format: 'jwk' });
    expect(cryptoSign(null, Buffer.from(jcs(unsigned.subject), 'utf8'), privateKey).toString('base64url')).toBe(record.jws);
  });
});

describe('checkSignature', () => {
  it.each(FORMS)('accepts the %s form as signed, naming the form and the key', (form) => {
    const check = checkSignature(doc(form), keyOf);
    expect(check).toEqual({
      ok: true,
      form,
      kid: forms.kid,
      detail: form === 'spec' ? 'Ed25519 signature over the JCS of credentialSubject verifies' : 'eddsa-jcs-2022 proof over the whole credential verifies',
    });
  });

  it.each(FORMS)('refuses the %s form when one character of the subject changes', (form) => {
    const changed = doc(form);
    changed.credentialSubject.seller.name = 'Acme Cards — Zürick';
    expect(checkSignature(changed, keyOf)).toMatchObject({ ok: false, form, kid: forms.kid });
    const score = doc(form);
    score.credentialSubject.score = 73;
    expect(checkSignature(score, keyOf).ok).toBe(false);
    const factor = doc(form);
    factor.credentialSubject.factors[0].contribution = 28.65;
    expect(checkSignature(factor, keyOf).ok).toBe(false);
  });

  it('by design, a changed validUntil breaks the data-integrity form but not the spec form (which signs the subject only)', () => {
    // The spec form's jws covers credentialSubject only; the period and status are the issuer's
    // record of that credential (POST /trust/verify), not the signature's.
    for (const form of FORMS) {
      const stretched = doc(form);
      stretched.validUntil = '2099-01-01T00:00:00.000Z';
      expect([form, checkSignature(stretched, keyOf).ok]).toEqual([form, form === 'spec']);
      expect([form, signatureValid(stretched, verifierKeys)]).toEqual([form, form === 'spec']);
    }
    const moved = doc('data-integrity');
    moved.credentialStatus.statusListIndex = '8';
    expect(checkSignature(moved, keyOf).ok).toBe(false);
    const reissued = doc('data-integrity');
    reissued.issuer.name = 'Someone else';
    expect(checkSignature(reissued, keyOf).ok).toBe(false);
  });

  it('refuses a data-integrity proof whose options changed (they are signed too)', () => {
    const created = doc('data-integrity');
    created.proof.created = '2026-11-25T12:00:00.000Z';
    expect(checkSignature(created, keyOf).ok).toBe(false);
    const purpose = doc('data-integrity');
    purpose.proof.proofPurpose = 'authentication';
    expect(checkSignature(purpose, keyOf).ok).toBe(false);
  });

  it.each(FORMS)('refuses the %s form under a key id it does not know, or signed by another key', (form) => {
    const unknown = doc(form);
    unknown.proof.verificationMethod = otherForms.kid;
    expect(checkSignature(unknown, keyOf)).toEqual({
      ok: false,
      form: null,
      kid: otherForms.kid,
      detail: `the proof's verificationMethod is not a key of this issuer (${otherForms.kid})`,
    });
    // Signed by another key but labelled with this issuer's kid.
    const forged = { ...unsigned, ...signCredential(unsigned, otherSecret) };
    expect(checkSignature(credentialDocument(forged, form), keyOf)).toMatchObject({ ok: false, form, kid: forms.kid });
    expect(signatureValid(JSON.parse(JSON.stringify(credentialDocument(forged, form))), verifierKeys)).toBe(false);
  });

  it('refuses what has no proof, or a proof of neither form', () => {
    expect(checkSignature(null, keyOf)).toEqual({ ok: false, form: null, kid: null, detail: 'the credential has no proof' });
    expect(checkSignature([doc('spec')], keyOf).ok).toBe(false);
    const { proof: _proof, ...bare } = doc('spec');
    expect(checkSignature(bare, keyOf)).toMatchObject({ ok: false, detail: 'the credential has no proof' });
    const noKid = doc('spec');
    delete noKid.proof.verificationMethod;
    expect(checkSignature(noKid, keyOf)).toMatchObject({ ok: false, kid: null });
    const neither = doc('data-integrity');
    neither.proof.cryptosuite = 'ecdsa-jcs-2019';
    expect(checkSignature(neither, keyOf)).toMatchObject({ ok: false, form: null, detail: 'the proof is neither a jws nor an eddsa-jcs-2022 DataIntegrityProof' });
  });

  it('refuses malformed signatures without throwing', () => {
    const short = doc('spec');
    short.proof.jws = record.jws.slice(0, 40);
    expect(checkSignature(short, keyOf)).toMatchObject({ ok: false, form: 'spec' });
    const noZ = doc('data-integrity');
    noZ.proof.proofValue = record.proofValue.slice(1);
    expect(checkSignature(noZ, keyOf)).toMatchObject({ ok: false, form: 'data-integrity' });
    const notBase58 = doc('data-integrity');
    notBase58.proof.proofValue = `${record.proofValue.slice(0, -1)}0`;
    expect(checkSignature(notBase58, keyOf)).toMatchObject({ ok: false, form: 'data-integrity' });
  });
});

describe('the independent verifier (test/support/trust-verifier.ts)', () => {
  it.each(FORMS)('accepts the %s form signCredential produced', (form) => {
    expect(signatureValid(doc(form), verifierKeys)).toBe(true);
  });

  it.each(FORMS)('refuses the %s form with one character of the subject changed', (form) => {
    const changed = doc(form);
    changed.credentialSubject.inputsHash = changed.credentialSubject.inputsHash.replace(/b$/, 'c');
    expect(signatureValid(changed, verifierKeys)).toBe(false);
    expect(checkSignature(changed, keyOf).ok).toBe(false);
  });

  it('accepts a data-integrity proof on a document without @context (withDataIntegrityProof), as checkSignature does', () => {
    const list = { id: 'https://api.example.test/trust/status-lists/1', type: ['BitstringStatusListCredential'], credentialSubject: { encodedList: 'uH4sI' } };
    const signed = JSON.parse(JSON.stringify(withDataIntegrityProof(list, forms.kid, '2026-11-24T12:00:00.000Z', secretKey)));
    expect(signed.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', verificationMethod: forms.kid, created: '2026-11-24T12:00:00.000Z' });
    expect(checkSignature(signed, keyOf)).toMatchObject({ ok: true, form: 'data-integrity' });
    expect(signatureValid(signed, verifierKeys)).toBe(true);
    signed.credentialSubject.encodedList = 'uH4sJ';
    expect(checkSignature(signed, keyOf).ok).toBe(false);
    expect(signatureValid(signed, verifierKeys)).toBe(false);
  });
});
