// Ed25519 and the names of its keys: base58btc (the IETF draft's vectors, leading zero bytes, round
// trips), the did:key spec's Ed25519 test vector, the key forms, and RFC 8032's test vector 1.
import fc from 'fast-check';

import { base58btc, controllerOf, fromBase58btc, keyForms, multibaseOf, newSecretKey, publicKeyFromMultibase, publicKeyOf, sign, verify } from './ed25519';

const hex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('base58btc', () => {
  it.each([
    ['Hello World!', '2NEpo7TZRRrLZSi2U'],
    ['The quick brown fox jumps over the lazy dog.', 'USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z'],
  ])('encodes %j as the draft-msporny-base58 vector', (text, encoded) => {
    expect(base58btc(utf8(text))).toBe(encoded);
    expect(toHex(fromBase58btc(encoded) as Uint8Array)).toBe(Buffer.from(text, 'utf8').toString('hex'));
  });

  it('keeps leading zero bytes as leading 1s', () => {
    expect(base58btc(hex('0000287fb4cd'))).toBe('11233QC4');
    expect(toHex(fromBase58btc('11233QC4') as Uint8Array)).toBe('0000287fb4cd');
    expect(base58btc(hex('00'))).toBe('1');
    expect(base58btc(hex('000000'))).toBe('111');
    expect(toHex(fromBase58btc('111') as Uint8Array)).toBe('000000');
    expect(base58btc(new Uint8Array(0))).toBe('');
    expect(fromBase58btc('')).toEqual(new Uint8Array(0));
  });

  it('refuses characters outside the alphabet (0, O, I, l and others)', () => {
    for (const bad of ['0', 'O', 'I', 'l', '2NEpo7TZRRrLZSi2U+', ' 1']) expect(fromBase58btc(bad)).toBeNull();
  });

  it('round-trips any bytes, leading zeros included', () => {
    const bytes = fc.tuple(fc.integer({ min: 0, max: 5 }), fc.uint8Array({ maxLength: 80 })).map(([zeros, rest]) => Uint8Array.from([...new Array<number>(zeros).fill(0), ...rest]));
    fc.assert(
      fc.property(bytes, (b) => {
        const text = base58btc(b);
        expect(text).toMatch(/^[1-9A-HJ-NP-Za-km-z]*$/);
        expect(toHex(fromBase58btc(text) as Uint8Array)).toBe(toHex(b));
      }),
      { numRuns: 500 },
    );
  });
});

describe('Multikey and did:key', () => {
  // The did:key spec's Ed25519 test vector (w3c-ccg/did-key-spec test-vectors/ed25519-x25519.json).
  const publicKeyHex = '2e6fcce36701dc791488e0d0b1745cc1e33a4c1c9fcc41c63bd343dbbe0970e6';
  const multibase = 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

  it('names the spec vector key by its multibase, both ways', () => {
    expect(multibaseOf(hex(publicKeyHex))).toBe(multibase);
    expect(toHex(publicKeyFromMultibase(multibase) as Uint8Array)).toBe(publicKeyHex);
  });

  it('refuses what is not an Ed25519 Multikey', () => {
    expect(publicKeyFromMultibase(multibase.slice(1))).toBeNull(); // no z
    expect(publicKeyFromMultibase(`u${multibase.slice(1)}`)).toBeNull();
    expect(publicKeyFromMultibase('z6LSeu9HkTHSfLLeUs2nnzUSNedgDUevfNQgQjQC23ZCit6F')).toBeNull(); // an X25519 key (0xec01)
    expect(publicKeyFromMultibase(`z${base58btc(Uint8Array.from([0xed, 0x01, ...hex(publicKeyHex).slice(1)]))}`)).toBeNull(); // 31 bytes
    expect(publicKeyFromMultibase(`z${base58btc(Uint8Array.from([0xed, 0x01, ...hex(publicKeyHex), 0]))}`)).toBeNull(); // 33 bytes
    expect(publicKeyFromMultibase('z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2do0')).toBeNull(); // not base58
  });

  it('gives every form of a key: did:key id, base64url, Multikey and JWK', () => {
    expect(keyForms(hex(publicKeyHex))).toEqual({
      kid: `did:key:${multibase}#${multibase}`,
      publicKey: 'Lm_M42cB3HkUiODQsXRcweM6TByfzEHGO9ND274JcOY',
      publicKeyMultibase: multibase,
      jwk: { kty: 'OKP', crv: 'Ed25519', x: 'Lm_M42cB3HkUiODQsXRcweM6TByfzEHGO9ND274JcOY', kid: `did:key:${multibase}#${multibase}`, alg: 'EdDSA', use: 'sig' },
    });
    expect(Buffer.from(keyForms(hex(publicKeyHex)).jwk.x, 'base64url').toString('hex')).toBe(publicKeyHex);
  });

  it('names the DID a key id belongs to', () => {
    expect(controllerOf(`did:key:${multibase}#${multibase}`)).toBe(`did:key:${multibase}`);
    expect(controllerOf(`did:key:${multibase}`)).toBe(`did:key:${multibase}`);
  });
});

describe('Ed25519', () => {
  // RFC 8032 §7.1, TEST 1.
  const secretKey = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
  const publicKey = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
  const signature =
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

  it('derives the public key of RFC 8032 test 1', () => {
    expect(toHex(publicKeyOf(secretKey))).toBe(publicKey);
  });

  it('signs the empty message as RFC 8032 test 1 says', () => {
    expect(toHex(sign(new Uint8Array(0), secretKey))).toBe(signature);
  });

  it('verifies that signature and refuses anything else', () => {
    expect(verify(hex(signature), new Uint8Array(0), hex(publicKey))).toBe(true);
    expect(verify(hex(signature), new Uint8Array([0]), hex(publicKey))).toBe(false);
    const flipped = hex(signature);
    flipped[10] ^= 1;
    expect(verify(flipped, new Uint8Array(0), hex(publicKey))).toBe(false);
    expect(verify(hex(signature), new Uint8Array(0), publicKeyOf(newSecretKey()))).toBe(false);
  });

  it('answers false, never throws, for malformed signatures or keys', () => {
    expect(verify(hex(signature).slice(0, 63), new Uint8Array(0), hex(publicKey))).toBe(false);
    expect(verify(new Uint8Array(0), new Uint8Array(0), hex(publicKey))).toBe(false);
    expect(verify(hex(signature), new Uint8Array(0), hex(publicKey).slice(1))).toBe(false);
  });

  it('makes fresh 32-byte secret keys whose signatures verify', () => {
    const a = newSecretKey();
    const b = newSecretKey();
    expect(a).toHaveLength(32);
    expect(toHex(a)).not.toBe(toHex(b));
    const message = utf8('a message');
    expect(verify(sign(message, a), message, publicKeyOf(a))).toBe(true);
    expect(verify(sign(message, a), message, publicKeyOf(b))).toBe(false);
  });
});
