// Intake sessions over HTTP against the real app, what is refused: bad JSON and CSV bodies, the
// wrong media type, a key without write:inventory, and another workspace's session.
import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, jsonRows, type Session, sessionCalls, SESSIONS } from './support/intake';

describe('intake sessions (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let otherKey: string;
  const { post, get, newSession } = sessionCalls(() => app, () => key);

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'intake')).apiKey;
    otherKey = (await createWorkspace(app.dataDir, 'intake-other')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it.each([
    ['an empty array', []],
    ['an object instead of an array', { items: [{ card: 'x' }] }],
    ['a row that is not an object', ['Charizard']],
    ['a nested value', [{ card: { name: 'x' } }]],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_label, body) => {
    const session = await newSession();
    const res = await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['a header only', 'card,set,price\r\n'],
    ['an unterminated quote', 'card,price\n"Charizard,12\n'],
    ['more than 50 columns', `${Array.from({ length: 51 }, (_, i) => `c${i}`).join(',')}\n${'x,'.repeat(50)}x\n`],
    ['more than 10,000 records', `card,price\n${'Charizard,1\n'.repeat(10_001)}`],
  ])('refuses CSV with %s as 400 VALIDATION_FAILED', async (_label, text) => {
    const session = await newSession();
    const res = await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, undefined, { csv: text });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('answers text/plain with 415, and CSV sent to another route with 400', async () => {
    const session = await newSession();
    const plain = await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, undefined, { csv: 'card\nx\n', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const elsewhere = await post<ErrorBody>('/api/v1/buyer-requests', undefined, { csv: 'cardName\nCharizard\n' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe('VALIDATION_FAILED');
    const create = await post<ErrorBody>(SESSIONS, undefined, { csv: 'name\nx\n' });
    expect(create.status).toBe(400);
  });

  it('needs write:inventory to write; read:inventory may read', async () => {
    const created = await cli(app.dataDir, ['key', 'create', '--workspace', 'intake', '--name', 'reader', '--scopes', 'read:inventory']);
    expect(created.code).toBe(0);
    const reader = created.json<{ secret: string }>().secret;
    const session = await newSession();

    for (const path of [SESSIONS, `${SESSIONS}/${session.id}/items`, `${SESSIONS}/${session.id}/push`]) {
      const denied = await post<ErrorBody>(path, path.endsWith('items') ? jsonRows : undefined, { key: reader });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { requiredScope: 'write:inventory' } });
    }
    expect((await get(`${SESSIONS}/${session.id}`, reader)).status).toBe(200);
    expect((await get(`${SESSIONS}/${session.id}/rows`, reader)).status).toBe(200);
    expect((await get(SESSIONS, reader)).status).toBe(200);
  });

  it("keeps workspaces apart: another workspace's session is 404 on every route and absent from its list", async () => {
    const session = await newSession();
    for (const res of [
      await get<ErrorBody>(`${SESSIONS}/${session.id}`, otherKey),
      await get<ErrorBody>(`${SESSIONS}/${session.id}/rows`, otherKey),
      await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, jsonRows, { key: otherKey }),
      await post<ErrorBody>(`${SESSIONS}/${session.id}/push`, undefined, { key: otherKey }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    const list = await get<{ data: Session[] }>(`${SESSIONS}?limit=100`, otherKey);
    expect(list.body.data.map((s) => s.id)).not.toContain(session.id);
    expect((await get<Session>(`${SESSIONS}/${session.id}`)).body.counts.total).toBe(0);
  });
});
