// Intake sessions over HTTP against the real app, what is refused: bad JSON and CSV bodies, hostile
// text in a row's keys (JSON keys, CSV header cells), the wrong media type, a key without
// write:inventory, and another workspace's session.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

  describe('hostile text in keys (the one rule for text covers them)', () => {
    const HOSTILE_KEYS = [
      ['NUL', '\u0000', 'U+0000'],
      ['a right-to-left override', '\u202E', 'U+202E'],
      ['a left-to-right isolate', '\u2066', 'U+2066'],
    ] as const;
    /** What the app keeps on disk: the log, the read models (and their write-ahead logs). */
    const stored = (): string =>
      ['events.db', 'read.db', 'eventual.db']
        .flatMap((name) => [name, `${name}-wal`])
        .map((file) => join(app.dataDir, file))
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path).toString('latin1'))
        .join('');
    const markers: string[] = [];

    it.each(HOSTILE_KEYS)('refuses %s in a JSON row key: 400 naming the key, nothing stored', async (label, char, code) => {
      const marker = `jsonkey${code.slice(2)}zq`;
      markers.push(marker);
      const session = await newSession();
      const res = await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, [
        { card: 'Pikachu', set: 'Jungle', condition: 'NM', price: 4 },
        { card: 'Charizard', set: 'Base', condition: 'NM', price: 400, [`Grade${char}${marker}`]: 'PSA 10' },
      ]);
      expect({ label, status: res.status, code: res.body.code }).toEqual({ label, status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.details?.issues).toEqual([{ path: `1.Grade\\u${code.slice(2)}${marker}`, message: expect.stringContaining(`the key itself contains ${code}`) }]);
      expect(res.body.message).toContain(`body key "1.Grade\\u${code.slice(2)}${marker}"`);
      expect(res.text).not.toContain(char);
      expect((await get<Session>(`${SESSIONS}/${session.id}`)).body.counts.total).toBe(0);
    });

    it.each(HOSTILE_KEYS)('refuses %s in a CSV header cell: 400 naming the cell, nothing stored', async (label, char, code) => {
      const marker = `csvhead${code.slice(2)}zq`;
      markers.push(marker);
      const session = await newSession();
      const res = await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, undefined, {
        csv: `Card Name,Set,Condition,Price,Grade${char}${marker}\nPikachu,Jungle,NM,4,PSA 9\nCharizard,Base,NM,400,\n`,
      });
      expect({ label, status: res.status, code: res.body.code }).toEqual({ label, status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.details?.issues).toEqual([{ path: 'header.4', message: expect.stringContaining(`a key of every row) contains ${code}`) }]);
      expect(res.body.message).toContain(`CSV header cell 5 "Grade\\u${code.slice(2)}${marker}"`);
      expect(res.text).not.toContain(char);
      expect((await get<Session>(`${SESSIONS}/${session.id}`)).body.counts.total).toBe(0);
    });

    it('kept none of those keys in the log or the read models (where a plain key is kept)', async () => {
      const session = await newSession();
      const plain = await post(`${SESSIONS}/${session.id}/items`, undefined, { csv: 'Card Name,Set,Condition,Price,Grade plainkeyzq\nPikachu,Jungle,NM,4,PSA 9\n' });
      expect(plain.status).toBe(200);
      await new Promise((r) => setTimeout(r, 200)); // the asynchronous read models' last writes
      const files = stored();
      expect(files).toContain('plainkeyzq'); // the files are read as stored
      expect(markers).toHaveLength(2 * HOSTILE_KEYS.length);
      expect(markers.filter((marker) => files.includes(marker))).toEqual([]);
    });
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
