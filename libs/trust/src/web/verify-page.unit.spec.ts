// The verification page's HTML (escaping, assets, CSP-friendliness) and the pure parts of its
// browser script, run in a node `vm` context: the script's own RFC 8785 canonicalize must agree
// with the `canonicalize` package byte for byte, or signatures would fail to verify; its base58btc
// decoder must agree with known vectors and the issuer's encoder; and its eddsa-jcs-2022 check
// (node's WebCrypto standing in for the browser's) must accept what the issuer signs and refuse a
// stretched validity period, a changed status entry, issuer, type or id, another key and a key that
// is not its kid's; its envelope check refuses a document the issuer's key signed that is not one of
// its seller trust credentials (another type, an id its subject does not name, no status entry).
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { createContext, runInContext } from 'node:vm';
import { gzipSync } from 'node:zlib';

import canonicalize from 'canonicalize';
import fc from 'fast-check';

import { credentialDocument, signCredential, withDataIntegrityProof } from '../credential/credential';
import { base58btc, keyForms, newSecretKey, publicKeyOf } from '../credential/ed25519';
import type { CredentialSubject } from '../credential/credential';
import { BADGE_PALETTES } from './badge';
import { VERIFY_PAGE_CSS, VERIFY_PAGE_PALETTES, VERIFY_PAGE_SCRIPT, htmlEscape, verifyPageHtml } from './verify-page';

type Json = Record<string, unknown>;
interface ProofResult {
  ok: boolean;
  detail: string;
  key?: { kid: string };
}
interface TrustVerify {
  canonicalize(value: unknown): string;
  base64urlToBytes(text: string): Uint8Array;
  base58btcToBytes(text: string): Uint8Array;
  didKeyBytes(kid: string): Uint8Array | null;
  hex(buffer: ArrayBuffer | Uint8Array): string;
  readBit(bytes: Uint8Array, index: number): number;
  tierLabel(tier: string): string;
  verifyProof(doc: unknown, keyDoc: unknown, noun: string): Promise<ProofResult>;
  checkEnvelope(credential: unknown): { ok: boolean; detail: string };
}

/**
 * The script evaluated in a context without window or document: it only publishes its helpers.
 * node's WebCrypto and TextEncoder stand in for the browser's.
 */
function scriptHelpers(): TrustVerify {
  const context = createContext({ crypto: globalThis.crypto, TextEncoder });
  runInContext(VERIFY_PAGE_SCRIPT, context, { timeout: 1000 });
  return (context as { __trustVerify: TrustVerify }).__trustVerify;
}

/** Both canonicalizers' answer, or "throws" when they refuse. */
function outcome(fn: (v: unknown) => string | undefined, value: unknown): string | undefined {
  try {
    return fn(value);
  } catch {
    return 'throws';
  }
}

describe('verifyPageHtml', () => {
  const hostile = `"><script>alert(1)</script>`;

  it('is a complete English HTML5 document titled for the seller', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Verify acme — seller trust credential</title>');
    expect(html).toContain('<main id="trust-verify" data-slug="acme" data-api-base=""');
    expect(html.trimEnd()).toMatch(/<\/html>$/);
  });

  it('references the script and stylesheet assets, and has no inline script or style', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toContain('<script src="/verify/assets/verify.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="/verify/assets/verify.css">');
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0][1]).toBe('');
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|javascript:/i);
  });

  it('links the credential in the form the page verifies', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toContain('<a id="link-credential" href="/api/v1/trust/credential/acme?proof=data-integrity">');
    // Without JavaScript, the plain link to the default form.
    expect(html).toContain('The raw credential is at <a href="/api/v1/trust/credential/acme">');
  });

  it('has the verdict, the live region and one item per check', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toContain('<h1 id="verdict" data-state="checking">');
    expect(html).toMatch(/aria-live="polite"[^>]*>\s*<h1 id="verdict"/);
    expect([...html.matchAll(/<li data-check="([a-z]+)">/g)].map((m) => m[1])).toEqual(['signature', 'inputs', 'validity', 'status']);
    expect(html).toContain('<table id="factors">');
  });

  it('escapes a hostile slug in the text, the title and the data- attribute', () => {
    const html = verifyPageHtml({ slug: hostile, apiBase: `"'<x>` });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain(hostile);
    const escaped = '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;';
    expect(html).toContain(`data-slug="${escaped}"`);
    expect(html).toContain(`<title>Verify ${escaped} — seller trust credential</title>`);
    expect(html).toContain(`<span id="seller-slug">${escaped}</span>`);
    expect(html).toContain('data-api-base="&quot;&#39;&lt;x&gt;"');
    // In URLs the slug is percent-encoded, then HTML-escaped.
    expect(html).toContain('/api/v1/trust/credential/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('keeps the score out of sight until the credential verifies, with a place for the claim in small print', () => {
    const html = verifyPageHtml({ slug: 'acme' });
    expect(html).toMatch(/<div id="score-box" hidden>\s*<p class="score-line"><span id="score" class="score"><\/span>/);
    expect(html).toContain('<p id="claimed" class="claimed" hidden></p>');
    expect(html).toMatch(/<section id="factors-section"[^>]* hidden>/);
    expect(VERIFY_PAGE_CSS).toContain('.claimed { margin: 0.35rem 0 0; color: var(--muted); font-size: 0.9rem; }');
  });

  it('marks a seller the service knows without a credential yet, its name escaped', () => {
    expect(verifyPageHtml({ slug: 'acme', newSeller: { name: `Acme "<Cards>"` } })).toContain(
      '<main id="trust-verify" data-slug="acme" data-api-base="" data-new-seller="Acme &quot;&lt;Cards&gt;&quot;" data-state="checking">',
    );
    expect(verifyPageHtml({ slug: 'acme', newSeller: null })).not.toContain('data-new-seller');
  });

  it('escapes all five HTML metacharacters', () => {
    expect(htmlEscape(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('VERIFY_PAGE_SCRIPT', () => {
  const helpers = scriptHelpers();

  it('is small and needs nothing from anywhere else', () => {
    expect(gzipSync(VERIFY_PAGE_SCRIPT).length).toBeLessThan(8 * 1024);
    expect(VERIFY_PAGE_SCRIPT).not.toMatch(/https?:\/\/|innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|import\(/);
    expect(VERIFY_PAGE_SCRIPT).not.toContain('__TIERS__');
  });

  it('fetches the credential in its data-integrity form and never checks the subject-only jws', () => {
    expect(VERIFY_PAGE_SCRIPT).toContain("'?proof=data-integrity'");
    expect(VERIFY_PAGE_SCRIPT).not.toMatch(/\.jws\b/);
    expect(VERIFY_PAGE_SCRIPT).toContain("digest('SHA-256'");
    expect(VERIFY_PAGE_SCRIPT).toContain("verify({ name: 'Ed25519' }");
    // Both the credential and its status list go through the same proof check.
    expect(VERIFY_PAGE_SCRIPT).toContain("verifyProof(credential, await keyDoc(), 'credential')");
    expect(VERIFY_PAGE_SCRIPT).toContain("verifyProof(list, await keyDoc(), 'status list')");
  });

  it('canonicalizes tricky values exactly like the canonicalize package', () => {
    const tricky: unknown[] = [
      { b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } },
      { '€': 1, '\r': 2, 'ö': 3, '\u{1F600}': 4, '\ufb33': 5, a: 6, A: 7, '': 8, '10': 9, '9': 10 },
      [1e21, 1e-7, 1.5e-7, 0.1, 0.2 + 0.1, -0, 0, -1, 5e-324, 1.7976931348623157e308, 2 ** 53, 333333333.33333329, 1e20, 123e-20],
      { numbers: [4.5, 0.002, 1e-6, 1e-7, 9007199254740993, -1e21] },
      'string with "quotes", \\ backslash, \n newline, \u0001 control, \u2028 separator, é, \u{1F0CF}',
      { nested: { deeper: { deepest: [[], {}, [{}], ''] } } },
      null,
      true,
      [false, 'false', 0, '0'],
      { __proto__: 1, constructor: 2, toString: 3 },
      JSON.parse('{"__proto__": {"x": 1}}'),
      { type: 'SellerTrustScore', score: 87, factors: [{ name: 'completion', value: 0.95, weight: 40, contribution: 38 }] },
    ];
    for (const value of tricky) {
      expect(helpers.canonicalize(value)).toBe(canonicalize(value));
    }
    expect(helpers.canonicalize({ b: [1e21, -0], a: '\u20ac' })).toBe('{"a":"€","b":[1e+21,0]}');
  });

  it('refuses what JCS cannot represent, as the package does', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, { a: [Number.NaN] }, '\ud800', 'x\udc00', { '\ud83d': 1 }]) {
      expect(() => helpers.canonicalize(bad)).toThrow();
      expect(outcome(canonicalize, bad)).toBe('throws');
    }
  });

  it('agrees with the canonicalize package on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        expect(outcome(helpers.canonicalize, value)).toBe(outcome(canonicalize, value));
        expect(outcome(helpers.canonicalize, { [text]: text })).toBe(outcome(canonicalize, { [text]: text }));
      }),
      { numRuns: 500 },
    );
  });

  it('decodes base64url like node does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64url');
        expect(Buffer.from(helpers.base64urlToBytes(text))).toEqual(Buffer.from(bytes));
        expect(Buffer.from(helpers.base64urlToBytes(Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')))).toEqual(Buffer.from(bytes));
      }),
    );
    expect(() => helpers.base64urlToBytes('ab+c')).toThrow();
    expect(() => helpers.base64urlToBytes('abcde')).toThrow();
    expect(helpers.hex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
  });

  it('decodes base58btc: the draft-msporny-base58 and Bitcoin vectors, and the issuer\'s encoder', () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['Hello World!', '2NEpo7TZRRrLZSi2U'],
      ['The quick brown fox jumps over the lazy dog.', 'USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z'],
      ['a', '2g'],
      ['bbb', 'a3gV'],
      ['simply a long string', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
    ];
    for (const [text, encoded] of vectors) expect(Buffer.from(helpers.base58btcToBytes(encoded)).toString('utf8')).toBe(text);
    const hexVectors: Array<[string, string]> = [
      ['0000287fb4cd', '11233QC4'],
      ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
      ['516b6fcd0f', 'ABnLTmg'],
      ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
      ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
      ['00000000000000000000', '1111111111'],
      ['00', '1'],
    ];
    for (const [hexBytes, encoded] of hexVectors) expect(helpers.hex(helpers.base58btcToBytes(encoded))).toBe(hexBytes);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(helpers.hex(helpers.base58btcToBytes(base58btc(bytes)))).toBe(Buffer.from(bytes).toString('hex'));
      }),
    );
    for (const bad of ['0', 'O', 'I', 'l', 'z+', '3 3']) expect(() => helpers.base58btcToBytes(bad)).toThrow(/base58btc/);
  });

  it('reads the raw Ed25519 key a did:key id names', () => {
    const raw = publicKeyOf(newSecretKey());
    const forms = keyForms(raw);
    expect(helpers.hex(helpers.didKeyBytes(forms.kid)!)).toBe(Buffer.from(raw).toString('hex'));
    expect(helpers.hex(helpers.didKeyBytes(`did:key:${forms.publicKeyMultibase}`)!)).toBe(Buffer.from(raw).toString('hex'));
    const other = keyForms(publicKeyOf(newSecretKey())).publicKeyMultibase;
    expect(helpers.didKeyBytes(`did:key:${forms.publicKeyMultibase}#${other}`)).toBeNull(); // the fragment names another key
    expect(helpers.didKeyBytes(`did:key:z${base58btc(Uint8Array.from([0xec, 0x01, ...raw]))}`)).toBeNull(); // X25519, not Ed25519
    expect(helpers.didKeyBytes(`did:key:z${base58btc(Uint8Array.from([0xed, 0x01, ...raw.slice(1)]))}`)).toBeNull(); // 31 bytes
    expect(helpers.didKeyBytes(`did:web:example.com#${forms.publicKeyMultibase}`)).toBeNull();
    expect(helpers.didKeyBytes(forms.publicKey)).toBeNull();
  });

  it('reads status bits with index 0 as the most significant bit of the first byte', () => {
    const bytes = new Uint8Array([0b1000_0000, 0b0000_0001, 0]);
    expect([0, 1, 7, 8, 14, 15, 16, 23].map((i) => helpers.readBit(bytes, i))).toEqual([1, 0, 0, 0, 0, 1, 0, 0]);
    expect(() => helpers.readBit(bytes, 24)).toThrow(/outside/);
    expect(() => helpers.readBit(bytes, -1)).toThrow(/outside/);
  });

  it('names the tiers like the badge', () => {
    expect(helpers.tierLabel('top_rated')).toBe('Top rated');
    expect(helpers.tierLabel('new_seller')).toBe('New seller');
    expect(helpers.tierLabel('constructor')).toBe('Constructor');
    expect(helpers.tierLabel('gold_plus')).toBe('Gold plus');
  });
});

describe('VERIFY_PAGE_SCRIPT verifyProof (eddsa-jcs-2022, node WebCrypto)', () => {
  const helpers = scriptHelpers();
  const secret = newSecretKey();
  const forms = keyForms(publicKeyOf(secret));
  const keyDoc = { ...forms, keys: [{ ...forms, status: 'active' }] };
  const created = '2026-01-02T03:04:05.000Z';
  const unsecured: Json = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: 'urn:uuid:4f1c8b8e-0000-4000-8000-000000000001',
    type: ['VerifiableCredential', 'SellerTrustCredential'],
    issuer: { id: forms.kid.split('#')[0], name: 'Collectibles Commerce API' },
    validFrom: created,
    validUntil: '2026-04-02T03:04:05.000Z',
    credentialSubject: { type: 'SellerTrustScore', seller: { slug: 'acme', name: 'Acme Cards' }, score: 87, tier: 'trusted' },
    credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '7', statusListCredential: 'https://x.example/api/v1/trust/status/sl' },
  };
  /** Signed by the issuer's own code (libs/trust/src/credential). */
  const signed = withDataIntegrityProof(unsecured, forms.kid, created, secret);
  const changed = (mutate: (doc: Json & { proof: Json }) => void): Json => {
    const copy = JSON.parse(JSON.stringify(signed)) as Json & { proof: Json };
    mutate(copy);
    return copy;
  };

  it('accepts what the issuer signs, naming the key', async () => {
    const result = await helpers.verifyProof(signed, keyDoc, 'credential');
    expect(result).toMatchObject({ ok: true, detail: 'the eddsa-jcs-2022 proof over the whole credential verifies', key: { kid: forms.kid } });
  });

  it('accepts a proof made independently with node:crypto from the specification', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const x = publicKey.export({ format: 'jwk' }).x!;
    const mb = `z${base58btc(Uint8Array.from([0xed, 0x01, ...Buffer.from(x, 'base64url')]))}`;
    const kid = `did:key:${mb}#${mb}`;
    const doc: Json = { ...unsecured, issuer: `did:key:${mb}` };
    const options = { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', created, verificationMethod: kid, proofPurpose: 'assertionMethod' };
    const digest = (v: unknown) => createHash('sha256').update(canonicalize(v)!, 'utf8').digest();
    const hashData = Buffer.concat([digest({ ...options, '@context': doc['@context'] }), digest(doc)]);
    const proofValue = `z${base58btc(sign(null, hashData, privateKey))}`;
    const keys = { keys: [{ kid, publicKey: x, status: 'retired' }] };
    expect((await helpers.verifyProof({ ...doc, proof: { ...options, proofValue } }, keys, 'credential')).ok).toBe(true);
    // The proof options are signed too: another `created` breaks it.
    expect((await helpers.verifyProof({ ...doc, proof: { ...options, created: '2026-01-02T03:04:06.000Z', proofValue } }, keys, 'credential')).ok).toBe(false);
  });

  it.each<[string, (doc: Json & { proof: Json }) => void, RegExp]>([
    ['a stretched validity period', (d) => (d.validUntil = '2099-01-01T00:00:00.000Z'), /signature does not match the credential/],
    ['another status index', (d) => ((d.credentialStatus as Json).statusListIndex = '8'), /signature does not match/],
    ['another issuer name', (d) => ((d.issuer as Json).name = 'Collectibles Commerce APl'), /signature does not match/],
    // The envelope POST /trust/verify holds to what was issued is signed here: the page refuses the same changes.
    ['the issuer replaced by "Evil Corp"', (d) => (d.issuer = 'Evil Corp'), /names the issuer Evil Corp but is signed by/],
    ['the issuer removed', (d) => delete d.issuer, /names the issuer undefined but is signed by/],
    ['the type changed', (d) => (d.type = ['VerifiableCredential', 'GovernmentIdCredential']), /signature does not match/],
    ['the type removed', (d) => delete d.type, /signature does not match/],
    ['the id changed', (d) => (d.id = 'urn:uuid:00000000-0000-4000-8000-000000000000'), /signature does not match/],
    ['the id removed', (d) => delete d.id, /signature does not match/],
    ['the status entry removed', (d) => delete d.credentialStatus, /signature does not match/],
    ['one character of the subject', (d) => ((d.credentialSubject as Json).score = 88), /signature does not match/],
    ['another @context', (d) => (d['@context'] = ['https://www.w3.org/ns/credentials/v2', 'https://x.example/ctx']), /signature does not match/],
    ['the subject-only proof type', (d) => (d.proof.type = 'Ed25519CredentialSubjectSignature'), /carries no eddsa-jcs-2022 DataIntegrityProof/],
    ['another purpose', (d) => (d.proof.proofPurpose = 'authentication'), /purpose is not assertionMethod/],
    ['an unlisted key', (d) => (d.proof.verificationMethod = keyForms(publicKeyOf(newSecretKey())).kid), /not among the issuer’s published keys/],
    ['an issuer that is not the key\'s', (d) => ((d.issuer as Json).id = 'did:key:z6Mkother'), /names the issuer did:key:z6Mkother but is signed by/],
    ['a proof value that is not base58btc', (d) => (d.proof.proofValue = `u${'A'.repeat(86)}`), /not a base58btc Ed25519 signature/],
    ['a truncated proof value', (d) => (d.proof.proofValue = (d.proof.proofValue as string).slice(0, -3)), /not a base58btc Ed25519 signature|signature does not match/],
  ])('refuses %s', async (_what, mutate, detail) => {
    const result = await helpers.verifyProof(changed(mutate), keyDoc, 'credential');
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(detail);
  });

  it('refuses a published key that is not the key its kid names, even when the signature is that key\'s', async () => {
    const otherSecret = newSecretKey();
    const other = keyForms(publicKeyOf(otherSecret));
    // Signed by `other`, under forms' kid; the keys document lists forms' kid with other's bytes.
    const forged = withDataIntegrityProof(unsecured, forms.kid, created, otherSecret);
    const lying = { keys: [{ kid: forms.kid, publicKey: other.publicKey, status: 'active' }] };
    const result = await helpers.verifyProof(forged, lying, 'credential');
    expect(result).toEqual({ ok: false, detail: `the published key is not the key its id ${forms.kid} names` });
  });

  it('checks a status list the same way', async () => {
    const list = withDataIntegrityProof(
      { '@context': ['https://www.w3.org/ns/credentials/v2'], id: 'https://x.example/api/v1/trust/status/sl', issuer: { id: forms.kid.split('#')[0] }, credentialSubject: { encodedList: 'uAAAA' } },
      forms.kid,
      created,
      secret,
    );
    expect(await helpers.verifyProof(list, keyDoc, 'status list')).toMatchObject({ ok: true, detail: 'the eddsa-jcs-2022 proof over the whole status list verifies' });
    const altered = { ...list, credentialSubject: { encodedList: 'uAAAB' } };
    expect(await helpers.verifyProof(altered, keyDoc, 'status list')).toEqual({ ok: false, detail: 'the Ed25519 signature does not match the status list: it was changed after it was signed' });
  });
});

describe('VERIFY_PAGE_SCRIPT checkEnvelope (what a verified proof does not say by itself)', () => {
  const helpers = scriptHelpers();
  const secret = newSecretKey();
  const kid = keyForms(publicKeyOf(secret)).kid;
  const LIST = 'https://x.example/api/v1/trust/status/sl';
  /** A credential as the issuer makes it (credentialDocument, data-integrity form). */
  const issued = (): Json & Record<string, any> => {
    const subject: CredentialSubject = {
      type: 'SellerTrustScore',
      credentialId: 'urn:uuid:4f1c8b8e-0000-4000-8000-000000000001',
      seller: { id: 'ws_1', slug: 'acme', name: 'Acme Cards' },
      score: 87,
      tier: 'trusted',
      formula: 'trust-v1',
      factors: [],
      inputsHash: `sha256:${'ab'.repeat(32)}`,
      inputsCount: 12,
      asOf: '2026-01-02T03:04:05.000Z',
    };
    const unsigned = { credentialId: subject.credentialId, issuedAt: subject.asOf, validUntil: '2026-04-02T03:04:05.000Z', kid, subject, statusListCredential: LIST, statusListIndex: 7 };
    return JSON.parse(JSON.stringify(credentialDocument({ ...unsigned, ...signCredential(unsigned, secret) }, 'data-integrity')));
  };

  it('accepts a seller trust credential as issued', () => {
    expect(helpers.checkEnvelope(issued())).toEqual({ ok: true, detail: 'a seller trust credential' });
  });

  it.each<[string, (c: Record<string, any>) => void, RegExp]>([
    ['another type (a status list the same key signed)', (c) => (c.type = ['VerifiableCredential', 'BitstringStatusListCredential']), /^it is not a seller trust credential \(its type is \["VerifiableCredential","BitstringStatusListCredential"\]\)$/],
    ['no type', (c) => delete c.type, /^it is not a seller trust credential \(its type is undefined\)$/],
    ['an id that is not a credential id', (c) => (c.id = 'https://evil.example/vc/1'), /^its id is not a credential id/],
    ['no id', (c) => delete c.id, /^its id is not a credential id/],
    ['an id its subject does not name', (c) => (c.id = 'urn:uuid:00000000-0000-4000-8000-000000000000'), /^its subject names the credential urn:uuid:4f1c.+, not urn:uuid:0{8}-/],
    ['no status entry', (c) => delete c.credentialStatus, /^it has no Bitstring Status List entry/],
    ['a status entry of another kind', (c) => (c.credentialStatus.type = 'StatusList2021Entry'), /^it has no Bitstring Status List entry/],
    ['a status entry whose id names another bit', (c) => (c.credentialStatus.id = `${LIST}#8`), /^it has no Bitstring Status List entry naming its list and bit$/],
  ])('refuses %s', (_what, mutate, detail) => {
    const credential = issued();
    mutate(credential);
    const result = helpers.checkEnvelope(credential);
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(detail);
  });
});

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) =>
    [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('VERIFY_PAGE_CSS', () => {
  it.each(['light', 'dark'] as const)('pairs text and background at 4.5:1 or more in the %s theme', (theme) => {
    const p = VERIFY_PAGE_PALETTES[theme];
    const tiers = Object.values(BADGE_PALETTES[theme].tiers);
    const pairs: Array<[string, string, string]> = [
      ...(['text', 'muted', 'link', 'ok', 'bad'] as const).map((fg): [string, string, string] => [fg, p[fg], p.card]),
      ...tiers.map((colour): [string, string, string] => ['tier', colour, p.card]),
      ['text on page', p.text, p.bg],
      ['muted on page', p.muted, p.bg],
      ['verified', p.ok, p['ok-bg']],
      ['verified detail', p.text, p['ok-bg']],
      ['not verified', p.bad, p['bad-bg']],
      ['not verified detail', p.text, p['bad-bg']],
      ['checking', p.wait, p['wait-bg']],
      ['checking detail', p.text, p['wait-bg']],
      ['code', p.text, p['code-bg']],
    ];
    for (const [what, fg, bg] of pairs) expect([what, fg, bg, contrast(fg, bg) >= 4.5]).toEqual([what, fg, bg, true]);
    expect(VERIFY_PAGE_CSS).toContain(`--card: ${p.card};`);
  });

  it('colours the tier label like the badge', () => {
    expect(VERIFY_PAGE_CSS).toContain('.tier[data-tier="top_rated"] { color: var(--tier-top_rated);');
    expect(VERIFY_PAGE_CSS).toContain(`--tier-top_rated: ${BADGE_PALETTES.dark.tiers.top_rated};`);
  });

  it('follows the colour scheme, keeps [hidden] hidden and loads nothing', () => {
    expect(VERIFY_PAGE_CSS).toContain('@media (prefers-color-scheme: dark)');
    expect(VERIFY_PAGE_CSS).toContain('[hidden] { display: none !important; }');
    expect(VERIFY_PAGE_CSS).not.toMatch(/@import|url\(/);
  });
});
