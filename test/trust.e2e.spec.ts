// Seller trust end to end, over HTTP on the real app: trades complete → the seller's score moves
// through trust.score_updated and fresh credentials; an independent verifier (node:crypto only,
// test/support/trust-verifier) accepts both credential forms and refuses a changed character,
// another key, an expired credential and a revoked one; the inputs hash to inputsHash; the audit
// agrees, before and after a projection rebuild; revocation and reinstatement (the seller's and
// the operator's); key rotation keeps old credentials verifying; the badge, QR code, scan
// tracking and verification page are served.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, until } from './support/http';
import { COMPLETE_MOVES, tradeThrough } from './support/trust';
import { jcs, signatureValid, type VerifierKey, verifyCredential } from './support/trust-verifier';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Credential = Record<string, Json> & {
  id: string;
  validFrom: string;
  validUntil: string;
  credentialSubject: { score: number | null; tier: string; inputsHash: string; inputsCount: number; credentialId: string; seller: { slug: string; name: string }; factors: Array<{ name: string; contribution: number }> };
  credentialStatus: { statusListIndex: string; statusListCredential: string };
  proof: { verificationMethod: string; jws?: string; proofValue?: string; type: string };
};
interface KeysDoc extends VerifierKey {
  keys: Array<VerifierKey & { status: string }>;
  publicKeyMultibase: string;
  jwk: { kty: string; crv: string; x: string };
}

const SLUG = 'acme-cards';
const ENV = { PUBLIC_BASE_URL: 'https://trust.example', TRUST_SUPERSEDED_GRACE_HOURS: '0', TIMER_POLL_MS: '50' };

describe('seller trust (e2e)', () => {
  let app: RunningApp;
  let key: string;
  const call = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => http<T>(app.url, method, path, { key, body, headers });
  const pub = <T>(path: string, headers?: Record<string, string>) => http<T>(app.url, 'GET', path, { headers });
  const credential = async (form = '') => (await pub<Credential>(`/api/v1/trust/credential/${SLUG}${form}`)).body;
  const keys = async () => (await pub<KeysDoc>('/api/v1/trust/public-key')).body.keys;
  const statusListOf = async (c: Credential) => (await pub<Record<string, Json>>(new URL(c.credentialStatus.statusListCredential).pathname)).body;
  const trustCli = (...args: string[]) => cli(app.dataDir, ['trust', ...args], ENV);

  const trade = (moves: Array<Record<string, unknown>>) => tradeThrough(app.url, key, moves);
  const COMPLETE = COMPLETE_MOVES;
  const scoreEvents = async () =>
    (await call<{ data: Array<{ data: { seller_id: string; score: number | null; previous_score: number | null; tier: string } }> }>('GET', '/api/v1/events?type=trust.score_updated&limit=100')).body.data;

  beforeAll(async () => {
    app = await startApp({ env: ENV });
    key = (await createWorkspace(app.dataDir, SLUG)).apiKey;
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('has no credential before a completed trade: a clear 404, but a "New seller" badge; the keys are served', async () => {
    const none = await pub<ErrorBody>(`/api/v1/trust/credential/${SLUG}`);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await pub<ErrorBody>('/api/v1/trust/credential/nobody-here')).status).toBe(404);
    // A seller with no completed trade: a badge that says so and vouches for nothing, never a 404 (a broken image).
    const badge = await pub(`/api/embed/trust-badge/${SLUG}`);
    expect(badge.status).toBe(200);
    expect(badge.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(badge.text).toContain('>New seller</text>');
    expect(badge.text).toContain('new seller: no completed trade yet, so no trust score. No credential yet.');
    expect(badge.text).toContain(`<a href="https://trust.example/api/embed/trust-scan/${SLUG}?via=badge" target="_top"`);
    expect(badge.text).not.toContain('Verified credential');
    // A slug no seller has: 404, never a badge for a name the service does not know.
    const unknown = await pub<ErrorBody>('/api/embed/trust-badge/nobody-here');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await pub(`/api/embed/trust-qr/${SLUG}`)).status).toBe(200);
    expect((await call<ErrorBody>('GET', '/api/v1/trust/score')).status).toBe(404);
    const keyDoc = (await pub<KeysDoc>('/api/v1/trust/public-key')).body;
    expect(Buffer.from(keyDoc.publicKey, 'base64url')).toHaveLength(32);
    expect(keyDoc.kid).toBe(`did:key:${keyDoc.publicKeyMultibase}#${keyDoc.publicKeyMultibase}`);
    expect(keyDoc.jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: keyDoc.publicKey });
    expect(keyDoc.keys).toHaveLength(1);
  });

  it('issues a new seller\'s credential at the first completed trade: a tier, no number; both forms verify independently', async () => {
    await trade(COMPLETE);
    const c = await until('the first credential', async () => ((await pub(`/api/v1/trust/credential/${SLUG}`)).status === 200 ? credential() : undefined));
    expect(c).toMatchObject({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential', 'SellerTrustCredential'],
      issuer: { id: expect.stringMatching(/^did:key:z6Mk/) },
      credentialSubject: { score: null, tier: 'new_seller', inputsCount: 1, seller: { slug: SLUG } },
      credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '0' },
    });
    expect(c.credentialStatus.statusListCredential.startsWith('https://trust.example/api/v1/trust/status/')).toBe(true);
    expect(c.credentialSubject.inputsHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const k = await keys();
    expect(verifyCredential(c, { keys: k, statusList: await statusListOf(c) })).toEqual({ ok: true, failures: [] });

    const di = await credential('?proof=data-integrity');
    expect(di.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', proofPurpose: 'assertionMethod' });
    expect(di.proof.proofValue).toMatch(/^z/);
    expect(verifyCredential(di, { keys: k })).toEqual({ ok: true, failures: [] });
    const byAccept = await pub<Credential>(`/api/v1/trust/credential/${SLUG}`, { accept: 'application/vc+ld+json' });
    expect(byAccept.headers.get('content-type')).toContain('application/vc+ld+json');
    expect(byAccept.body.proof.type).toBe('DataIntegrityProof');
    // The status list is itself signed (eddsa-jcs-2022).
    expect(signatureValid(await statusListOf(c), k)).toBe(true);
  });

  it('the verification script of docs/trust.md (node:crypto only, at most 20 lines) verifies the signature and the inputs hash', async () => {
    const readme = readFileSync(join(__dirname, '..', 'docs', 'trust.md'), 'utf8');
    const script = /```js\n(\/\/ verify-trust\.mjs[\s\S]*?)```/.exec(readme)?.[1];
    expect(script).toBeDefined();
    expect((script as string).trim().split('\n').length).toBeLessThanOrEqual(20);
    expect(script).not.toMatch(/from '(?!node:)/);
    const file = join(mkdtempSync(join(tmpdir(), 'cc-verify-')), 'verify-trust.mjs');
    writeFileSync(file, script as string);
    const { stdout } = await promisify(execFile)(process.execPath, [file, app.url, SLUG]);
    expect(JSON.parse(stdout)).toMatchObject({ slug: SLUG, tier: 'new_seller', signed: true, hashed: true });
  });

  it('refuses a changed character in credentialSubject, another key, an expired credential (independent verifier and POST /trust/verify)', async () => {
    const c = await credential();
    const k = await keys();
    const tampered = JSON.parse(JSON.stringify(c)) as Credential;
    tampered.credentialSubject.seller.name = `${c.credentialSubject.seller.name.slice(0, -1)}X`;
    expect(verifyCredential(tampered, { keys: k }).failures).toContain('signature');
    const diTampered = await credential('?proof=data-integrity');
    diTampered.validUntil = '2099-01-01T00:00:00.000Z';
    expect(verifyCredential(diTampered, { keys: k }).failures).toContain('signature');

    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
    expect(verifyCredential(c, { keys: [{ kid: c.proof.verificationMethod, publicKey: other }] }).failures).toContain('signature');
    expect(verifyCredential(c, { keys: k, now: new Date(Date.parse(c.validUntil) + 1000) }).failures).toEqual(['validity']);

    const good = await http<{ valid: boolean; checks: Array<{ name: string; ok: boolean }> }>(app.url, 'POST', '/api/v1/trust/verify', { body: { credential: c } });
    expect(good.status).toBe(200);
    expect(good.body.valid).toBe(true);
    expect(good.body.checks.map((x) => [x.name, x.ok])).toEqual(['signature', 'issuer', 'id', 'type', 'validity', 'status', 'inputs'].map((name) => [name, true]));
    const bad = await http<{ valid: boolean; checks: Array<{ name: string; ok: boolean }> }>(app.url, 'POST', '/api/v1/trust/verify', { body: { credential: tampered } });
    expect(bad.body.valid).toBe(false);
    expect(bad.body.checks.find((x) => x.name === 'signature')?.ok).toBe(false);
    const stretched = await http<{ valid: boolean; checks: Array<{ name: string; ok: boolean }> }>(app.url, 'POST', '/api/v1/trust/verify', {
      body: { credential: { ...c, validUntil: '2099-01-01T00:00:00.000Z' } },
    });
    expect(stretched.body.checks.find((x) => x.name === 'validity')?.ok).toBe(false);
    expect((await http<ErrorBody>(app.url, 'POST', '/api/v1/trust/verify', { body: { credential: 'nope' } })).status).toBe(400);
  });

  it('serves the inputs its hash covers: one row per outcome, pseudonymous, no buyer data', async () => {
    const c = await credential();
    const inputs = await pub<{ trades: Array<Record<string, unknown>>; seller: string }>(`/api/v1/trust/credential/${SLUG}/inputs`);
    expect(`sha256:${require('node:crypto').createHash('sha256').update(inputs.text).digest('hex')}`).toBe(c.credentialSubject.inputsHash);
    expect(inputs.text).toBe(jcs(JSON.parse(inputs.text)));
    expect(inputs.body.trades).toHaveLength(1);
    expect(Object.keys(inputs.body.trades[0]).sort()).toEqual(['amountMinor', 'cancelledBy', 'closedAt', 'currency', 'dispute', 'initiatedAt', 'outcome', 'paidAt', 'ref', 'shippedAt']);
    expect(String(inputs.body.trades[0].ref)).toMatch(/^t_[0-9a-f]{24}$/);
    expect(inputs.text).not.toMatch(/trd_/);
  });

  it('moves the score through trust.score_updated as trades complete, and a superseded credential stops verifying past its grace', async () => {
    const first = await credential();
    for (let i = 0; i < 4; i++) await trade(COMPLETE);
    await trade([{ to: 'paid' }, { to: 'cancelled', cancelledBy: 'seller', reason: 'out of stock' }]);
    const scored = await until('a scored credential', async () => {
      const c = await credential();
      return c.credentialSubject.inputsCount === 6 ? c : undefined;
    });
    expect(scored.credentialSubject.score).toEqual(expect.any(Number));
    expect(scored.credentialSubject.score).toBeGreaterThan(0);
    expect(scored.credentialSubject.factors.map((f) => f.name)).toEqual(['completion', 'cancellations', 'disputes', 'shipping_speed', 'volume', 'tenure']);
    const sum = scored.credentialSubject.factors.reduce((s, f) => s + f.contribution, 0);
    expect(Math.abs(sum - (scored.credentialSubject.score as number))).toBeLessThanOrEqual(0.5);
    const events = await until('trust.score_updated events', async () => {
      const list = await scoreEvents();
      return list.some((e) => e.data.score !== null) ? list : undefined;
    });
    // Oldest first: the new seller's tier without a number, then each change naming the score before it.
    const changes = events.map((e) => e.data).reverse();
    expect(changes[0]).toEqual({ seller_id: SLUG, score: null, previous_score: null, tier: 'new_seller', credential_id: expect.any(String) });
    for (let i = 1; i < changes.length; i++) expect(changes[i].previous_score).toBe(changes[i - 1].score);
    expect(changes[changes.length - 1]).toMatchObject({ score: scored.credentialSubject.score, tier: scored.credentialSubject.tier, credential_id: scored.id });
    // Grace 0 in this suite: the first credential is superseded, its bit set.
    const k = await keys();
    expect(verifyCredential(first, { keys: k, statusList: await statusListOf(scored) }).failures).toEqual(['status']);
    const old = await http<{ valid: boolean; checks: Array<{ name: string; ok: boolean; detail: string }> }>(app.url, 'POST', '/api/v1/trust/verify', { body: { credential: first } });
    expect(old.body.checks.find((x) => x.name === 'status')).toMatchObject({ ok: false, detail: expect.stringContaining('superseded') });
    // The inputs of an older credential are recomputed from the trades it counted.
    expect(old.body.checks.find((x) => x.name === 'inputs')?.ok).toBe(true);
    const mine = await call<{ score: number; tier: string; flag: null }>('GET', '/api/v1/trust/score');
    expect(mine.body).toMatchObject({ score: scored.credentialSubject.score, flag: null });
  });

  it('audits the inputs from the log, and the audit still agrees after a projection rebuild', async () => {
    const audit = await trustCli('audit', '--seller', SLUG);
    expect(audit.code).toBe(0);
    expect(audit.json<{ agrees: boolean }>().agrees).toBe(true);
    const c = await credential();
    const rebuilt = await cli(app.dataDir, ['projections', 'rebuild', 'trust'], ENV);
    expect(rebuilt.code).toBe(0);
    const again = await trustCli('audit', '--seller', SLUG);
    expect(again.json<{ agrees: boolean; checks: Array<{ name: string; ok: boolean }> }>()).toMatchObject({ agrees: true });
    const after = await until('the rebuilt read model', async () => ((await pub(`/api/v1/trust/credential/${SLUG}`)).status === 200 ? credential() : undefined));
    expect(after).toEqual(c);
    const inputs = await pub(`/api/v1/trust/credential/${SLUG}/inputs`);
    expect(`sha256:${require('node:crypto').createHash('sha256').update(inputs.text).digest('hex')}`).toBe(c.credentialSubject.inputsHash);
  });

  it('revokes: the seller\'s own flag (admin key) sets the status bit, stops issuance, and lifting it issues a fresh credential', async () => {
    const before = await credential();
    const revoked = await call<{ flag: { by: string; reason: string } }>('POST', '/api/v1/trust/credential/revoke', { reason: 'key compromised' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.flag).toMatchObject({ by: 'seller', reason: 'key compromised' });
    const k = await keys();
    expect(verifyCredential(before, { keys: k, statusList: await statusListOf(before) }).failures).toEqual(['status']);
    const check = await http<{ valid: boolean; checks: Array<{ name: string; ok: boolean; detail: string }> }>(app.url, 'POST', '/api/v1/trust/verify', { body: { credential: before } });
    expect(check.body.checks.find((x) => x.name === 'status')).toMatchObject({ ok: false, detail: expect.stringContaining('key compromised') });
    expect((await pub(`/api/embed/trust-badge/${SLUG}`)).text).toMatch(/revoked/i);

    await trade(COMPLETE);
    await new Promise((r) => setTimeout(r, 800));
    expect((await credential()).id).toBe(before.id);

    const lifted = await call<{ flag: null }>('POST', '/api/v1/trust/credential/reinstate');
    expect(lifted.body.flag).toBeNull();
    const fresh = await until('a fresh credential', async () => {
      const c = await credential();
      return c.id !== before.id ? c : undefined;
    });
    expect(fresh.credentialSubject.inputsCount).toBe(7);
    expect(verifyCredential(fresh, { keys: await keys(), statusList: await statusListOf(fresh) })).toEqual({ ok: true, failures: [] });
  });

  it('an operator\'s flag (CLI) is the operator\'s to lift: the seller gets 409', async () => {
    const flagged = await trustCli('revoke', '--seller', SLUG, '--reason', 'fraud report under review');
    expect(flagged.code).toBe(0);
    expect(flagged.json<{ revoked: boolean }>().revoked).toBe(true);
    const refused = await call<ErrorBody>('POST', '/api/v1/trust/credential/reinstate');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    const before = await credential();
    expect((await trustCli('reinstate', '--seller', SLUG)).json<{ reinstated: boolean }>().reinstated).toBe(true);
    await until('a fresh credential', async () => ((await credential()).id !== before.id ? true : undefined));
  });

  it('rotates the signing key: the old key stays listed, old credentials keep verifying, new ones use the new key', async () => {
    const old = await credential();
    const rotated = await trustCli('rotate-key');
    expect(rotated.code).toBe(0);
    const listed = await until('both keys listed', async () => {
      const k = (await pub<KeysDoc>('/api/v1/trust/public-key')).body;
      return k.keys.length === 2 ? k : undefined;
    });
    expect(listed.keys.map((k) => k.status)).toEqual(['active', 'retired']);
    expect(listed.kid).not.toBe(old.proof.verificationMethod);
    expect(signatureValid(old, listed.keys)).toBe(true);
    await trade(COMPLETE);
    const next = await until('a credential signed with the new key', async () => {
      const c = await credential();
      return c.proof.verificationMethod === listed.kid ? c : undefined;
    });
    expect(verifyCredential(next, { keys: listed.keys })).toEqual({ ok: true, failures: [] });
  });

  it('serves the badge (accessible SVG, themed, cached), the QR code, the verification page and its assets', async () => {
    const light = await pub(`/api/embed/trust-badge/${SLUG}`);
    expect(light.status).toBe(200);
    expect(light.headers.get('content-type')).toContain('image/svg+xml');
    expect(light.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(light.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(light.text).toMatch(/^<svg [^>]*><a href="https:\/\/trust\.example\/api\/embed\/trust-scan\/acme-cards\?via=badge" target="_top" aria-labelledby="/);
    expect(light.text).toMatch(/<title[^>]*>[^<]*Workspace acme-cards/);
    // Any page may frame it (an <object>), and it loads nothing.
    expect(light.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors *");
    expect(light.headers.get('x-frame-options')).toBeNull();
    const etag = light.headers.get('etag') as string;
    expect((await pub(`/api/embed/trust-badge/${SLUG}`, { 'if-none-match': etag })).status).toBe(304);
    const dark = await pub(`/api/embed/trust-badge/${SLUG}?theme=dark`);
    expect(dark.text).not.toBe(light.text);
    expect((await pub<ErrorBody>(`/api/embed/trust-badge/${SLUG}?theme=neon`)).status).toBe(400);

    const qr = await pub(`/api/embed/trust-qr/${SLUG}`);
    expect(qr.headers.get('content-type')).toContain('image/svg+xml');
    expect(qr.text).toMatch(/<path/);

    const page = await pub(`/verify/${SLUG}`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/verify/assets/verify.js');
    expect((await pub('/verify/assets/verify.js')).headers.get('content-type')).toContain('javascript');
    expect((await pub('/verify/assets/verify.css')).headers.get('content-type')).toContain('text/css');
  });

  it('serves public answers again from the service\'s shared cache for at most a second, rate limits included, 304 on a match', async () => {
    const url = `/api/embed/trust-badge/${SLUG}?theme=dark`;
    const first = await pub(url);
    const second = await pub(url);
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.headers.get('ratelimit-policy')).toBeTruthy();
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    const notModified = await pub(url, { 'if-none-match': first.headers.get('etag') as string });
    expect([notModified.status, notModified.headers.get('x-cache')]).toEqual([304, 'hit']);
    // Varying on Accept: the data-integrity form is its own copy.
    await pub(`/api/v1/trust/credential/${SLUG}`, { accept: 'application/vc+ld+json' });
    const di = await pub<Credential>(`/api/v1/trust/credential/${SLUG}`, { accept: 'application/vc+ld+json' });
    const spec = await pub<Credential>(`/api/v1/trust/credential/${SLUG}`);
    expect(di.headers.get('x-cache')).toBe('hit');
    expect([di.body.proof.type, spec.body.proof.type]).toEqual(['DataIntegrityProof', 'Ed25519CredentialSubjectSignature']);
    // Authenticated and uncacheable answers are never kept.
    await call('GET', '/api/v1/trust/score');
    expect((await call('GET', '/api/v1/trust/score')).headers.get('x-cache')).toBeNull();
    // A second later the copy is gone.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await pub(url)).headers.get('x-cache')).toBeNull();
  });

  it('tracks scans: redirects to the verification page, counts a visitor once per half hour, keeps only the referrer\'s origin', async () => {
    const follow = (via: string) => fetch(`${app.url}/api/embed/trust-scan/${SLUG}?via=${via}`, { redirect: 'manual', headers: { referer: 'https://shop.example/listing/42?ref=abc' } });
    const first = await follow('qr');
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`/verify/${SLUG}`);
    await follow('qr');
    await follow('badge');
    const counts = await until('the scan counted', async () => {
      const res = await call<{ total: number; data: Array<{ count: number; qr: number; badge: number }> }>('GET', '/api/v1/trust/scans');
      return res.body.total > 0 ? res.body : undefined;
    });
    expect(counts).toMatchObject({ total: 1, data: [{ count: 1, qr: 1, badge: 0 }] });
    expect((await fetch(`${app.url}/api/embed/trust-scan/nobody-here`, { redirect: 'manual' })).status).toBe(404);
  });
});
