// Intake sessions over HTTP against the real app: JSON and CSV rows normalized as they arrive,
// counts and rows read back, a push that creates inventory (and triggers matching), a second push
// that changes nothing, a replayed add, and a 10,000-row push. Refusals: intake-refusals.e2e.spec.ts.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import {
  type Added,
  csv,
  type ErrorBody,
  type InventoryItem,
  jsonRows,
  type Pushed,
  type Row,
  type Session,
  sessionCalls,
  SESSIONS,
} from './support/intake';

describe('intake sessions (e2e)', () => {
  let app: RunningApp;
  let key: string;
  const { post, get, newSession } = sessionCalls(() => app, () => key);

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'intake')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  it('runs a session end to end: JSON and CSV rows, counts, rows, push, inventory, a second push', async () => {
    const session = await newSession({ name: 'Spring show', source: 'csv-export' });
    expect(session).toMatchObject({
      id: expect.stringMatching(/^ing_[0-9A-Z]{26}$/),
      status: 'open',
      defaultCurrency: 'USD',
      counts: { total: 0, valid: 0, warning: 0, error: 0, pushed: 0 },
      push: null,
    });

    const fromJson = await post<Added>(`${SESSIONS}/${session.id}/items`, jsonRows);
    expect(fromJson.status).toBe(200);
    expect(fromJson.body.added).toBe(3);
    expect(fromJson.body.rows.map((r) => [r.row, r.status])).toEqual([
      [1, 'valid'],
      [2, 'warning'],
      [3, 'error'],
    ]);
    expect(fromJson.body.rows[0].fields).toMatchObject({ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', price: 450.5, currency: 'USD', quantity: 2 });
    expect(fromJson.body.rows[1].issues.map((i) => i.code)).toEqual(['UNKNOWN_COLUMN']);
    expect(fromJson.body.rows[2].issues.map((i) => `${i.severity}:${i.code}`)).toEqual(['error:INVALID_PRICE']);

    const fromCsv = await post<Added>(`${SESSIONS}/${session.id}/items`, undefined, { csv, headers: { 'content-type': 'text/csv; charset=utf-8' } });
    expect(fromCsv.status).toBe(200);
    expect(fromCsv.body.rows.map((r) => [r.row, r.status])).toEqual([
      [4, 'valid'],
      [5, 'warning'],
      [6, 'error'],
      [7, 'error'],
    ]);
    expect(fromCsv.body.rows[0].fields).toMatchObject({ cardName: 'Venusaur', price: 1234.5 });
    expect(fromCsv.body.rows[1].fields).toMatchObject({ setName: 'Jungel', condition: 'Lightly Played', currency: 'EUR' });
    expect(fromCsv.body.rows[1].issues.map((i) => i.code)).toContain('UNKNOWN_SET');
    expect(fromCsv.body.rows[2].issues.map((i) => i.code)).toContain('MISSING_CARD_NAME');
    expect(fromCsv.body.rows[3].issues.map((i) => i.code)).toContain('CURRENCY_CONFLICT');
    expect(fromCsv.body.counts).toEqual({ total: 7, valid: 2, warning: 2, error: 3, pushed: 0 });

    const read = await get<Session>(`${SESSIONS}/${session.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'open', counts: { total: 7, valid: 2, warning: 2, error: 3, pushed: 0 } });

    const errors = await get<{ data: Row[]; nextCursor: string | null }>(`${SESSIONS}/${session.id}/rows?status=error`);
    expect(errors.body.data.map((r) => r.row)).toEqual([3, 6, 7]);
    expect(errors.body.data[1].raw).toEqual({ card: '', set: 'Base', condition: 'NM', price: '10', currency: '', qty: '1', notes: 'no name' });

    const pushed = await post<Pushed>(`${SESSIONS}/${session.id}/push`);
    expect(pushed.status).toBe(200);
    expect(pushed.body).toMatchObject({ sessionId: session.id, status: 'pushed', pushed: 4, skipped: 3, skippedRows: [3, 6, 7] });
    expect(pushed.body.matchedBuyerRequests).toBeGreaterThanOrEqual(0);

    // Read-your-writes: the items are listed at once, with their normalized names.
    const inventory = await get<{ data: InventoryItem[] }>('/api/v1/inventory?limit=100');
    expect(inventory.status).toBe(200);
    expect(inventory.body.data.map((i) => `${i.cardName}|${i.setName}|${i.condition}|${i.price}|${i.currency}|${i.quantity}`).sort()).toEqual([
      'Blastoise|Base|PSA 9|325|USD|1',
      'Charizard|Base|Near Mint|450.5|USD|2',
      'Mewtwo|Jungel|Lightly Played|40|EUR|1',
      'Venusaur|Base|Near Mint|1234.5|USD|1',
    ]);

    const rows = await get<{ data: Row[] }>(`${SESSIONS}/${session.id}/rows?limit=100`);
    const itemIds = rows.body.data.map((r) => r.inventoryItemId);
    expect(itemIds.filter((id) => id !== null).sort()).toEqual(inventory.body.data.map((i) => i.id).sort());
    expect(rows.body.data.filter((r) => r.status === 'error').every((r) => r.inventoryItemId === null)).toBe(true);

    const after = await get<Session>(`${SESSIONS}/${session.id}`);
    expect(after.body).toMatchObject({ status: 'pushed', counts: { pushed: 4 }, push: { pushed: 4, skipped: 3, skippedRows: [3, 6, 7] } });

    // A second push answers the same and creates nothing.
    const again = await post<Pushed>(`${SESSIONS}/${session.id}/push`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(pushed.body);
    const still = await get<{ data: InventoryItem[] }>('/api/v1/inventory?limit=100');
    expect(still.body.data).toHaveLength(4);

    const late = await post<ErrorBody>(`${SESSIONS}/${session.id}/items`, jsonRows);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('INVALID_TRANSITION');
  });

  it('creates a session without a body, with a default currency, and lists sessions newest first', async () => {
    const bare = await newSession();
    expect(bare).toMatchObject({ name: null, source: null, defaultCurrency: 'USD' });
    const euros = await newSession({ defaultCurrency: 'eur' });
    expect(euros.defaultCurrency).toBe('EUR');
    const added = await post<Added>(`${SESSIONS}/${euros.id}/items`, [{ card: 'Charizard', set: 'Base', condition: 'NM', price: '12' }]);
    expect(added.body.rows[0].fields.currency).toBe('EUR');

    const list = await get<{ data: Session[]; nextCursor: string | null }>(`${SESSIONS}?limit=2`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((s) => s.id)).toEqual([euros.id, bare.id]);
    expect(list.body.nextCursor).toEqual(expect.any(String));
  });

  it('pushes an empty session as nothing', async () => {
    const session = await newSession();
    const pushed = await post<Pushed>(`${SESSIONS}/${session.id}/push`);
    expect(pushed.status).toBe(200);
    expect(pushed.body).toMatchObject({ pushed: 0, skipped: 0, matchedBuyerRequests: 0, skippedRows: [] });
  });

  it('replays an add with the same Idempotency-Key instead of adding twice', async () => {
    const session = await newSession();
    const headers = { 'idempotency-key': `add-${session.id}` };
    const first = await post<Added>(`${SESSIONS}/${session.id}/items`, jsonRows, { headers });
    const retry = await post<Added>(`${SESSIONS}/${session.id}/items`, jsonRows, { headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await get<Session>(`${SESSIONS}/${session.id}`)).body.counts.total).toBe(3);
  });

  it('adds 10,000 CSV rows and pushes them all', async () => {
    const { apiKey } = await createWorkspace(app.dataDir, 'intake-big');
    const session = await newSession({ name: '10k' }, apiKey);
    const lines = Array.from({ length: 10_000 }, (_, i) => `Charizard,Base,NM,${(i % 500) + 1}.25,1,SKU-${i}`);
    const text = ['card,set,condition,price,qty,sku', ...lines].join('\n');
    expect(text.length).toBeLessThan(1024 * 1024);

    const added = await post<Added>(`${SESSIONS}/${session.id}/items`, undefined, { key: apiKey, csv: text });
    expect(added.status).toBe(200);
    expect(added.body.counts).toMatchObject({ total: 10_000, valid: 10_000 });
    const pushed = await post<Pushed>(`${SESSIONS}/${session.id}/push`, undefined, { key: apiKey });
    expect(pushed.status).toBe(200);
    expect(pushed.body.pushed).toBe(10_000);
    // Its speed is not a test's business (CI may share its cores): bench:scale B measures it.

    // Read-your-writes held: the last item is listed at once.
    const rows = await get<{ data: Row[] }>(`${SESSIONS}/${session.id}/rows?limit=1&status=valid`, apiKey);
    const first = rows.body.data[0].inventoryItemId;
    expect(first).toEqual(expect.stringMatching(/^inv_/));
    expect((await get(`/api/v1/inventory/${String(first)}`, apiKey)).status).toBe(200);
  }, 60_000);
});
