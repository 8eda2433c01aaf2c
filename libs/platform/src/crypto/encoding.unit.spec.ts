import { base32, CROCKFORD_BASE32, normalizeEmail, RFC4648_BASE32_LOWER } from './encoding';

describe('base32', () => {
  it('encodes the leading bits, most significant first (RFC 4648 test vector "foobar")', () => {
    // RFC 4648 §10: BASE32("foobar") = "MZXW6YTBOI======" — lowercase, without padding.
    expect(base32(Buffer.from('foobar'), 9, RFC4648_BASE32_LOWER)).toBe('mzxw6ytbo');
    expect(base32(Buffer.from('f'), 1, RFC4648_BASE32_LOWER)).toBe('m');
  });

  it("uses Crockford's alphabet by default (no I, L, O, U)", () => {
    expect(base32(Buffer.from([0xff, 0xff]), 3)).toBe('ZZZ');
    expect(base32(Buffer.from([0, 0]), 3)).toBe('000');
    expect(base32(Buffer.alloc(32, 0xa5), 26)).toMatch(new RegExp(`^[${CROCKFORD_BASE32}]{26}$`));
  });

  it('refuses to read past the bytes', () => {
    expect(() => base32(Buffer.alloc(2), 4)).toThrow(RangeError);
  });
});

describe('normalizeEmail', () => {
  it('trims, lowercases and composes (NFC)', () => {
    expect(normalizeEmail('  Owner@Example.COM ')).toBe('owner@example.com');
    expect(normalizeEmail('Jose\u0301@example.com')).toBe('jos\u00e9@example.com');
  });
});
