// Known answers from the W3C Data Integrity EdDSA specification (vc-di-eddsa, its eddsa-jcs-2022
// test vectors: the Alumni Credential signed with the key z6MkrJVn…, once with the document's
// @context carried in the proof and once without): our proof checker accepts both, and our signer,
// given the key, reproduces the first proof value byte for byte — so stock verifiers and ours agree.
import { checkSignature, signDataIntegrity } from './credential';
import { fromBase58btc, publicKeyFromMultibase } from './ed25519';

const KID = 'did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2';
const SECRET_KEY_MULTIBASE = 'z3u2en7t5LR2WtQH5PfFqMqwVHBeXouLzo6haApm8XHqvjxq';
const unsecured = {
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'],
  id: 'urn:uuid:58172aac-d8ba-11ed-83dd-0b3aef56cc33',
  type: ['VerifiableCredential', 'AlumniCredential'],
  name: 'Alumni Credential',
  description: 'A minimum viable example of an Alumni Credential.',
  issuer: 'https://vc.example/issuers/5678',
  validFrom: '2023-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:abcdefgh', alumniOf: 'The School of Examples' },
};
const CREATED = '2023-02-24T23:36:38Z';
const signed = {
  ...unsecured,
  proof: {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created: CREATED,
    verificationMethod: KID,
    proofPurpose: 'assertionMethod',
    proofValue: 'zboydVv31kj6jP37GMBZwYyjbvrqr9MWeY9NCEfYUwLcKwkdqAcB44dqEcqaMi8mfdvT2Vbnvdrv6XRaYzgpuPWn',
  },
};
const keyOf = (kid: string) => (kid === KID ? publicKeyFromMultibase(KID.split('#')[1]) : null);

/** The 32-byte seed of a multibase Ed25519 secret key (multicodec 0x8026). */
function secretKeyOf(multibase: string): Uint8Array {
  const bytes = fromBase58btc(multibase.slice(1)) as Uint8Array;
  expect([bytes[0], bytes[1]]).toEqual([0x80, 0x26]);
  return bytes.slice(2);
}

describe('eddsa-jcs-2022 against the W3C specification\'s test vectors', () => {
  it('accepts the specification\'s signed credential', () => {
    expect(checkSignature(signed, keyOf)).toMatchObject({ ok: true, form: 'data-integrity', kid: KID });
  });

  it('accepts the form whose proof carries the document\'s @context', () => {
    const withContext = {
      ...unsecured,
      proof: { ...signed.proof, '@context': unsecured['@context'], proofValue: 'z2HnFSSPPBzR36zdDgK8PbEHeXbR56YF24jwMpt3R1eHXQzJDMWS93FCzpvJpwTWd3GAVFuUfjoJdcnTMuVor51aX' },
    };
    expect(checkSignature(withContext, keyOf).ok).toBe(true);
  });

  it('refuses it with one character changed', () => {
    const changed = { ...signed, credentialSubject: { ...signed.credentialSubject, alumniOf: 'The School of Examplez' } };
    expect(checkSignature(changed, keyOf).ok).toBe(false);
  });

  it('signs as the specification does: the same key, document and time give the same proof value', () => {
    expect(signDataIntegrity(unsecured, KID, CREATED, secretKeyOf(SECRET_KEY_MULTIBASE))).toBe(
      'z2HnFSSPPBzR36zdDgK8PbEHeXbR56YF24jwMpt3R1eHXQzJDMWS93FCzpvJpwTWd3GAVFuUfjoJdcnTMuVor51aX',
    );
  });
});
