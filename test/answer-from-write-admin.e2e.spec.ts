// The workspace's own settings answer with what their write decided, and concurrent repeats cannot
// make them lie: API keys, webhooks, automation rules, widget settings, portal sessions and the
// seller's trust flag. 20 identical repeats sent at once all answer the resulting state and the log
// holds exactly one event; 20 that say different things (another revocation reason) are one 200
// and 409s naming the field; a creation answers itself and its GET and list see it at once.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http } from './support/http';
import { createPortalUser, PASSWORD, signIn } from './support/portal';
import { becomeSeller } from './support/trust';

/** The event types of one stream, as the log holds them. */
function streamEvents(dataDir: string, streamId: string): string[] {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT type FROM events WHERE stream_id = ? ORDER BY revision').all(streamId) as Array<{ type: string }>).map((r) => r.type);
  } finally {
    db.close();
  }
}

const count = (types: string[], type: string) => types.filter((t) => t === type).length;
const twenty = <T>(send: (i: number) => Promise<T>) => Promise.all(Array.from({ length: 20 }, (_, i) => send(i)));

describe('answer from the write: keys, webhooks, automations, widget, portal, trust (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    app = await startApp({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', PUBLIC_BASE_URL: 'https://trust.example' } });
    ({ apiKey: key, id: workspaceId } = await createWorkspace(app.dataDir, 'answers-admin'));
  }, 30_000);

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const call = <T>(method: string, path: string, body?: unknown) => http<T>(app.url, method, path, { key, body });

  it('API keys: a new key answers itself, is listed and works at once; 20 revocations at once all answer it revoked, one in the log', async () => {
    const created = await call<{ id: string; status: string; secret: string }>('POST', '/api/v1/api-keys', { name: 'ci', scopes: ['read:requests'] });
    expect(created).toMatchObject({ status: 201, body: { name: 'ci', status: 'active', scopes: ['read:requests'] } });
    const { id, secret } = created.body;
    expect((await call('GET', `/api/v1/api-keys/${id}`)).body).toMatchObject({ id, status: 'active' });
    expect((await call<{ data: Array<{ id: string }> }>('GET', '/api/v1/api-keys')).body.data.map((k) => k.id)).toContain(id);
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: secret })).status).toBe(200);

    const answers = await twenty(() => call<{ id: string; status: string; revokedAt: string | null }>('DELETE', `/api/v1/api-keys/${id}`));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const revokedAt = answers[0].body.revokedAt;
    expect(revokedAt).not.toBeNull();
    for (const answer of answers) expect(answer.body).toMatchObject({ id, status: 'revoked', revokedAt });
    expect(streamEvents(app.dataDir, `api_key-${id}`)).toEqual(['api_key.created', 'api_key.revoked']);
    expect((await http(app.url, 'GET', '/api/v1/buyer-requests', { key: secret })).status).toBe(401);
  });

  describe('webhooks', () => {
    const subscribe = async () => {
      const created = await call<{ id: string; status: string; secret: string; description: string | null }>('POST', '/api/v1/webhooks', {
        url: 'http://127.0.0.1:9/hooks',
        events: ['inventory.created'],
      });
      expect(created.status).toBe(201);
      return created.body;
    };

    it('a new webhook answers itself with its secret, and its GET and list see it at once', async () => {
      const created = await subscribe();
      expect(created).toMatchObject({ status: 'enabled', url: 'http://127.0.0.1:9/hooks', secret: expect.stringMatching(/^whsec_/) });
      expect((await call('GET', `/api/v1/webhooks/${created.id}`)).body).toMatchObject({ id: created.id, status: 'enabled' });
      expect((await call<{ data: Array<{ id: string }> }>('GET', '/api/v1/webhooks')).body.data.map((w) => w.id)).toContain(created.id);
      const rotated = await call<{ id: string; secret: string; previousSecretsExpireAt: string | null }>('POST', `/api/v1/webhooks/${created.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(created.secret);
      expect(rotated.body.previousSecretsExpireAt).not.toBeNull();
    });

    it('20 identical changes at once: every answer shows them, the log holds one change and one switch off', async () => {
      const { id } = await subscribe();
      const described = await twenty(() => call<{ description: string | null }>('PATCH', `/api/v1/webhooks/${id}`, { description: 'order desk' }));
      expect(described.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (const answer of described) expect(answer.body).toMatchObject({ id, description: 'order desk' });
      const disabled = await twenty(() => call<{ status: string }>('PATCH', `/api/v1/webhooks/${id}`, { enabled: false }));
      expect(disabled.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (const answer of disabled) expect(answer.body).toMatchObject({ id, status: 'disabled', description: 'order desk' });
      expect(streamEvents(app.dataDir, `webhook-${id}`)).toEqual(['webhook.created', 'webhook.updated', 'webhook.disabled']);
      expect((await call('GET', `/api/v1/webhooks/${id}`)).body).toMatchObject({ status: 'disabled', description: 'order desk' });
    });

    it('20 deletions at once: one answers deleted, the others find it gone (a deleted resource no longer exists), the log holds one', async () => {
      const { id } = await subscribe();
      const answers = await twenty(() => call<ErrorBody>('DELETE', `/api/v1/webhooks/${id}`));
      expect(answers.filter((a) => a.status === 200).map((a) => a.body)).toEqual([{ id, deleted: true }]);
      for (const refused of answers.filter((a) => a.status !== 200)) expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      expect(streamEvents(app.dataDir, `webhook-${id}`)).toEqual(['webhook.created', 'webhook.deleted']);
      expect((await call('GET', `/api/v1/webhooks/${id}`)).status).toBe(404);
      expect((await call<{ data: Array<{ id: string }> }>('GET', '/api/v1/webhooks')).body.data.map((w) => w.id)).not.toContain(id);
    });
  });

  describe('automations', () => {
    const rule = {
      name: 'Accept buyer offers at 90 % of list or more',
      trigger: { event: 'offer.created', conditions: [{ field: 'from', op: 'eq', value: 'buyer' }] },
      action: { type: 'accept_offer', params: { minPercentOfList: 90 } },
    };
    const create = async () => {
      const created = await call<{ id: string; status: string; enabled: boolean }>('POST', '/api/v1/automations', rule);
      expect(created.status).toBe(201);
      return created.body;
    };

    it('a new rule answers itself, and its GET and list see it at once', async () => {
      const created = await create();
      expect(created).toMatchObject({ name: rule.name, status: 'active', enabled: true });
      expect((await call('GET', `/api/v1/automations/${created.id}`)).body).toMatchObject({ id: created.id, status: 'active' });
      expect((await call<{ data: Array<{ id: string }> }>('GET', '/api/v1/automations')).body.data.map((r) => r.id)).toContain(created.id);
    });

    it('20 identical changes, then 20 deletions, at once: every answer shows the result, the log holds one of each', async () => {
      const { id } = await create();
      const changed = await twenty(() => call<{ enabled: boolean }>('PATCH', `/api/v1/automations/${id}`, { enabled: false }));
      expect(changed.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (const answer of changed) expect(answer.body).toMatchObject({ id, enabled: false, status: 'active' });
      const archived = await twenty(() => call<{ status: string; archivedAt: string | null }>('DELETE', `/api/v1/automations/${id}`));
      expect(archived.map((a) => a.status)).toEqual(Array(20).fill(200));
      const archivedAt = archived[0].body.archivedAt;
      expect(archivedAt).not.toBeNull();
      for (const answer of archived) expect(answer.body).toMatchObject({ id, status: 'archived', enabled: false, archivedAt });
      expect(streamEvents(app.dataDir, `automation-${id}`)).toEqual(['automation.created', 'automation.updated', 'automation.archived']);
      expect((await call('GET', `/api/v1/automations/${id}`)).body).toMatchObject({ status: 'archived', archivedAt });
    });

    it('a key that could not do what the rule does may not delete it, judged on the rule as the log holds it', async () => {
      const { id } = await create();
      const narrow = await call<{ secret: string }>('POST', '/api/v1/api-keys', { name: 'offers only', scopes: ['write:trades'] });
      const reprice = { ...rule, enabled: false, trigger: { event: 'inventory.created', conditions: [] }, action: { type: 'reprice_item', params: { percentOfPrice: 90 } } };
      const created = await call<{ id: string }>('POST', '/api/v1/automations', reprice);
      expect(created.status).toBe(201);
      const refused = await http<ErrorBody>(app.url, 'DELETE', `/api/v1/automations/${created.body.id}`, { key: narrow.body.secret });
      expect(refused).toMatchObject({ status: 403, body: { code: 'INSUFFICIENT_SCOPE' } });
      expect((await http(app.url, 'DELETE', `/api/v1/automations/${id}`, { key: narrow.body.secret })).status).toBe(200);
      expect((await http(app.url, 'DELETE', '/api/v1/automations/au_missing', { key: narrow.body.secret })).status).toBe(404);
    });
  });

  it('widget settings: 20 identical lists at once all answer the list, the log holds one change, the GET sees it', async () => {
    const origins = ['https://shop.acme.example', 'https://acme.example'];
    const answers = await twenty(() => call<{ allowedOrigins: string[]; updatedAt: string | null }>('PUT', '/api/v1/widget/settings', { allowedOrigins: origins }));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const updatedAt = answers[0].body.updatedAt;
    for (const answer of answers) expect(answer.body).toMatchObject({ allowedOrigins: [...origins].sort(), updatedAt });
    expect(streamEvents(app.dataDir, `widget_settings-${workspaceId}`)).toEqual(['widget.settings_changed']);
    expect((await call('GET', '/api/v1/widget/settings')).body).toMatchObject({ allowedOrigins: [...origins].sort(), updatedAt });
  });

  it('portal: a sign-in answers its session, in force at once; a sign-out ends it at once', async () => {
    const user = await createPortalUser(app.dataDir, 'answers-admin', 'owner@answers.example');
    const session = await signIn(app.url, { workspace: 'answers-admin', email: user.email, password: PASSWORD });
    expect(session.body).toMatchObject({ user: { id: user.id, email: user.email }, workspace: { slug: 'answers-admin' } });
    const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
    expect((await http(app.url, 'GET', '/portal/api/session', { headers })).status).toBe(200);
    expect((await http(app.url, 'GET', '/api/v1/api-keys', { headers })).status).toBe(200);
    expect((await http(app.url, 'DELETE', '/portal/api/session', { headers })).body).toEqual({ signedOut: true });
    expect((await http(app.url, 'GET', '/portal/api/session', { headers })).status).toBe(401);
  });

  it('trust: 20 identical revocations at once all answer the flag, one in the log; 20 with different reasons: one 200, the rest 409 naming the reason', async () => {
    await becomeSeller(app.url, key);
    const same = await twenty(() => call<{ flag: { by: string; reason: string } | null }>('POST', '/api/v1/trust/credential/revoke', { reason: 'key compromised' }));
    expect(same.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const answer of same) expect(answer.body.flag).toMatchObject({ by: 'seller', reason: 'key compromised' });
    expect(count(streamEvents(app.dataDir, `trust-${workspaceId}`), 'trust.credential_revoked')).toBe(1);
    expect((await call('GET', '/api/v1/trust/score')).body).toMatchObject({ flag: { by: 'seller', reason: 'key compromised' } });

    const lifted = await call<{ flag: null }>('POST', '/api/v1/trust/credential/reinstate');
    expect(lifted).toMatchObject({ status: 200, body: { flag: null } });
    expect((await call('GET', '/api/v1/trust/score')).body).toMatchObject({ flag: null });

    const differing = await twenty((i) => call<{ flag: { reason: string } } & ErrorBody>('POST', '/api/v1/trust/credential/revoke', { reason: `reason ${i}` }));
    const taken = differing.filter((a) => a.status === 200);
    expect(taken).toHaveLength(1);
    const reason = taken[0].body.flag.reason;
    for (const refused of differing.filter((a) => a.status !== 200)) {
      expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { field: 'reason', recorded: reason } } });
    }
    expect(count(streamEvents(app.dataDir, `trust-${workspaceId}`), 'trust.credential_revoked')).toBe(2);
  }, 60_000);
});
