// The trust credential as a verifier outside the service reads it, end to end on the real app: the
// subject is served with its keys in RFC 8785 order, so a verifier that follows the interface
// literally — Ed25519 over `JSON.stringify` of the parsed `credentialSubject`, by the `publicKey`
// of GET /trust/public-key — accepts it, fresh and from the service's shared cache. And POST
// /trust/verify checks the whole envelope against what was issued: the jws covers the subject only,
// so a served credential with its issuer, type, id or status entry changed or removed (or a field
// added, or the proof's own fields changed) still carries a good jws, and must not verify; in the
// data-integrity form the signature fails as well.
import { createPublicKey, verify } from 'node:crypto';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { becomeSeller } from './support/trust';
import { jcs } from './support/trust-verifier';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Credential = { [key: string]: Json } & { credentialSubject: { [key: string]: Json }; proof: { [key: string]: Json } };
interface Verification {
  valid: boolean;
  credentialId: string | null;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
}
type Tamper = (vc: Record<string, any>) => void;
const CHECKS = ['signature', 'issuer', 'id', 'type', 'validity', 'status', 'inputs'];

/** The fault suite: what is changed, how, and the check that must say so. */
const TAMPERED: Array<[string, string, Tamper]> = [
  ['the issuer replaced by "Evil Corp"', 'issuer', (vc) => (vc.issuer = 'Evil Corp')],
  ['the issuer renamed "Evil Corp"', 'issuer', (vc) => (vc.issuer.name = 'Evil Corp')],
  ['the issuer\'s DID replaced', 'issuer', (vc) => (vc.issuer.id = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')],
  ['the issuer removed', 'issuer', (vc) => delete vc.issuer],
  ['the type changed', 'type', (vc) => (vc.type = ['VerifiableCredential', 'GovernmentIdCredential'])],
  ['the type removed', 'type', (vc) => delete vc.type],
  ['the @context changed', 'type', (vc) => vc['@context'].push('https://evil.example/context')],
  ['a field added', 'type', (vc) => (vc.evidence = [{ type: 'Endorsement', by: 'Evil Corp' }])],
  ['the id changed', 'id', (vc) => (vc.id = 'urn:uuid:00000000-0000-4000-8000-000000000000')],
  ['the id removed', 'id', (vc) => delete vc.id],
  ['the credentialStatus index changed', 'status', (vc) => Object.assign(vc.credentialStatus, { statusListIndex: '1', id: `${vc.credentialStatus.statusListCredential}#1` })],
  ['the credentialStatus list changed', 'status', (vc) => (vc.credentialStatus.statusListCredential = 'https://evil.example/status/1')],
  ['the credentialStatus removed', 'status', (vc) => delete vc.credentialStatus],
];

const SLUG = 'envelope-cards';
// A copy in the shared cache lives as long as the answer says (60 s): the second read is a hit.
const ENV = { PUBLIC_BASE_URL: 'https://trust.example', PUBLIC_CACHE_TTL_MS: '60000' };

/** The interface taken literally: the signature covers the JSON serialization of credentialSubject. */
function literallyVerified(vc: Credential, publicKey: string): boolean {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
  return verify(null, Buffer.from(JSON.stringify(vc.credentialSubject)), key, Buffer.from(String(vc.proof.jws), 'base64url'));
}

describe('the trust credential as served (e2e)', () => {
  let app: RunningApp;
  const get = <T>(path: string, headers?: Record<string, string>) => http<T>(app.url, 'GET', path, { headers });
  const verifyCredential = async (credential: unknown): Promise<Verification> => {
    const res = await http<Verification>(app.url, 'POST', '/api/v1/trust/verify', { body: { credential } });
    expect(res.status).toBe(200);
    return res.body;
  };
  const failed = (answer: Verification) => answer.checks.filter((c) => !c.ok).map((c) => c.name);

  beforeAll(async () => {
    app = await startApp({ env: ENV });
    const { apiKey } = await createWorkspace(app.dataDir, SLUG);
    await becomeSeller(app.url, apiKey);
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('verifies with JSON.stringify of the parsed subject and the publicKey, fresh and from the shared cache', async () => {
    const { publicKey } = (await get<{ publicKey: string }>('/api/v1/trust/public-key')).body;
    const fresh = await get<Credential>(`/api/v1/trust/credential/${SLUG}`);
    const cached = await get<Credential>(`/api/v1/trust/credential/${SLUG}`);
    expect([fresh.status, cached.status, cached.headers.get('x-cache')]).toEqual([200, 200, 'hit']);
    for (const served of [fresh, cached]) {
      expect(JSON.stringify(served.body.credentialSubject)).toBe(jcs(served.body.credentialSubject));
      expect(literallyVerified(served.body, publicKey)).toBe(true);
    }
  });

  it.each(['', '?proof=data-integrity'])('verifies the credential as served (%s) with every check passed', async (query) => {
    const vc = (await get<Credential>(`/api/v1/trust/credential/${SLUG}${query}`)).body;
    const answer = await verifyCredential(vc);
    expect(answer.checks.map((c) => [c.name, c.ok])).toEqual(CHECKS.map((name) => [name, true]));
    expect(answer).toMatchObject({ valid: true, credentialId: vc.credentialSubject.credentialId });
  });

  it.each(TAMPERED)('refuses a credential with %s: the %s check fails (jws form: only it; data-integrity: the signature too)', async (_what, check, tamper) => {
    for (const query of ['', '?proof=data-integrity']) {
      const vc = (await get<Credential>(`/api/v1/trust/credential/${SLUG}${query}`)).body;
      tamper(vc);
      const answer = await verifyCredential(vc);
      expect([query, answer.valid, failed(answer)]).toEqual([query, false, query === '' ? [check] : ['signature', check]]);
    }
  });

  it('refuses a jws credential whose proof fields beside the jws were changed', async () => {
    const vc = (await get<Credential>(`/api/v1/trust/credential/${SLUG}`)).body;
    vc.proof.created = '2030-01-01T00:00:00.000Z';
    const answer = await verifyCredential(vc);
    expect([answer.valid, failed(answer)]).toEqual([false, ['signature']]);
    expect(answer.checks[0].detail).toMatch(/^the signature verifies, but the proof's fields beside it/);
  });

  it('says what was stated and what was issued in the failed check', async () => {
    const vc = (await get<Credential>(`/api/v1/trust/credential/${SLUG}`)).body;
    const issuer = (vc.issuer as { id: string }).id;
    vc.issuer = 'Evil Corp';
    const answer = await verifyCredential(vc);
    expect(answer.checks.find((c) => c.name === 'issuer')).toEqual({ name: 'issuer', ok: false, detail: `the issuer stated ("Evil Corp") is not this service (${issuer}, "Collectibles Commerce API")` });
  });

  it('answers what is not a credential with {code, message, details}', async () => {
    for (const body of [{ credential: 'nope' }, {}, { credential: {}, extra: true }]) {
      const res = await http<{ code: string; message: string; details: unknown }>(app.url, 'POST', '/api/v1/trust/verify', { body });
      expect([res.status, res.body.code, typeof res.body.message, res.body.details]).toEqual([400, 'VALIDATION_FAILED', 'string', expect.anything()]);
    }
  });

  it('serves the data-integrity form\'s subject in the same order', async () => {
    const di = await get<Credential>(`/api/v1/trust/credential/${SLUG}?proof=data-integrity`);
    expect(di.body.proof.type).toBe('DataIntegrityProof');
    expect(JSON.stringify(di.body.credentialSubject)).toBe(jcs(di.body.credentialSubject));
  });
});
