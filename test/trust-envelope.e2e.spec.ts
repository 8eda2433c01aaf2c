// The trust credential as a verifier outside the service reads it, end to end on the real app: the
// subject is served with its keys in RFC 8785 order, so a verifier that follows the interface
// literally — Ed25519 over `JSON.stringify` of the parsed `credentialSubject`, by the `publicKey`
// of GET /trust/public-key — accepts it, fresh and from the service's shared cache.
import { createPublicKey, verify } from 'node:crypto';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';
import { becomeSeller } from './support/trust';
import { jcs } from './support/trust-verifier';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Credential = { [key: string]: Json } & { credentialSubject: { [key: string]: Json }; proof: { [key: string]: Json } };

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

  it('serves the data-integrity form\'s subject in the same order', async () => {
    const di = await get<Credential>(`/api/v1/trust/credential/${SLUG}?proof=data-integrity`);
    expect(di.body.proof.type).toBe('DataIntegrityProof');
    expect(JSON.stringify(di.body.credentialSubject)).toBe(jcs(di.body.credentialSubject));
  });
});
