// A write answers with what it decided, and concurrent repeats cannot make it lie: of 20 identical
// moves sent at once, every answer shows the resulting state and the log holds exactly one move;
// of 20 that say different things, one is taken and the others are 409 naming what differs. The
// next GET sees the write at once, with no wait for any other read model.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

interface Trade {
  id: string;
  status: string;
  paymentReference: string | null;
  shipment: { carrier: string | null; trackingNumber: string | null } | null;
}

/** The events of one stream, as the log holds them. */
function streamEvents(dataDir: string, streamId: string): string[] {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT type FROM events WHERE stream_id = ? ORDER BY revision').all(streamId) as Array<{ type: string }>).map((r) => r.type);
  } finally {
    db.close();
  }
}

describe('answer from the write (e2e)', () => {
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'answers')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const call = <T>(method: string, path: string, body?: unknown) => http<T>(app.url, method, path, { key, body });

  async function newTrade(): Promise<Trade> {
    const item = await call<{ id: string }>('POST', '/api/v1/inventory', { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 400, quantity: 1 });
    expect(item.status).toBe(201);
    const trade = await call<Trade>('POST', '/api/v1/trades', { inventoryItemId: item.body.id });
    expect(trade.status).toBe(201);
    return trade.body;
  }

  it('a new trade answers itself, and its GET and list see it at once', async () => {
    const trade = await newTrade();
    expect(trade).toMatchObject({ status: 'initiated', paymentReference: null });
    expect((await call<Trade>('GET', `/api/v1/trades/${trade.id}`)).body).toMatchObject({ id: trade.id, status: 'initiated' });
    expect((await call<{ data: Trade[] }>('GET', '/api/v1/trades')).body.data.map((t) => t.id)).toContain(trade.id);
  });

  it('20 identical moves at once: every answer shows the trade paid, and the log holds one move', async () => {
    const trade = await newTrade();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call<Trade>('POST', `/api/v1/trades/${trade.id}/transitions`, { to: 'paid', reference: 'pi_same' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const answer of answers) expect(answer.body).toMatchObject({ id: trade.id, status: 'paid', paymentReference: 'pi_same' });
    expect(streamEvents(app.dataDir, `trade-${trade.id}`)).toEqual(['trade.initiated', 'trade.paid', 'trade.status_changed']);
    expect((await call<Trade>('GET', `/api/v1/trades/${trade.id}`)).body).toMatchObject({ status: 'paid', paymentReference: 'pi_same' });
  });

  it('20 moves that say different things at once: one is taken, the others are 409 naming the field', async () => {
    const trade = await newTrade();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call<Trade & { code?: string; details?: Record<string, unknown> }>('POST', `/api/v1/trades/${trade.id}/transitions`, { to: 'paid', reference: `pi_${i}` })),
    );
    const taken = answers.filter((a) => a.status === 200);
    expect(taken).toHaveLength(1);
    const reference = taken[0].body.paymentReference;
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { field: 'reference', recorded: reference, status: 'paid' } } });
    }
    expect(streamEvents(app.dataDir, `trade-${trade.id}`)).toEqual(['trade.initiated', 'trade.paid', 'trade.status_changed']);
    expect((await call<Trade>('GET', `/api/v1/trades/${trade.id}`)).body.paymentReference).toBe(reference);
  });

  it('moves racing to different states: a 200 shows the state its own move asked for, never an older one', async () => {
    const trade = await newTrade();
    const moves = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'paid' : 'cancelled'));
    const answers = await Promise.all(moves.map((to) => call<Trade>('POST', `/api/v1/trades/${trade.id}/transitions`, { to })));
    answers.forEach((answer, i) => {
      // Taken, or a no-op on a trade already there: the trade as it is then. Else judged from the
      // state another move left (cancelled is final: paid is then an illegal move).
      if (answer.status === 200) expect(answer.body.status).toBe(moves[i]);
      else expect(answer).toMatchObject({ status: 409, body: { code: 'INVALID_TRANSITION' } });
    });
    expect(answers.some((a) => a.status === 200 && a.body.status === 'cancelled')).toBe(true);
  });

  it('ETag and If-Match: answers carry the trade\'s version; a write on a version that moved on is 412, nothing changed', async () => {
    const trade = await newTrade();
    const read = await call<Trade>('GET', `/api/v1/trades/${trade.id}`);
    expect(read.headers.get('etag')).toBe('W/"0"');
    const stale = read.headers.get('etag') ?? '';
    const moved = await http<Trade>(app.url, 'POST', `/api/v1/trades/${trade.id}/transitions`, { key, body: { to: 'paid' }, headers: { 'if-match': stale } });
    expect({ status: moved.status, etag: moved.headers.get('etag'), trade: moved.body.status }).toEqual({ status: 200, etag: 'W/"2"', trade: 'paid' });
    const refused = await http(app.url, 'POST', `/api/v1/trades/${trade.id}/transitions`, { key, body: { to: 'cancelled' }, headers: { 'if-match': stale } });
    expect(refused).toMatchObject({ status: 412, body: { code: 'PRECONDITION_FAILED', details: { expectedETag: 'W/"0"', currentETag: 'W/"2"' } } });
    expect((await call<Trade>('GET', `/api/v1/trades/${trade.id}`)).body.status).toBe('paid');
    const bad = await http(app.url, 'POST', `/api/v1/trades/${trade.id}/transitions`, { key, body: { to: 'shipped' }, headers: { 'if-match': 'yesterday' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'If-Match' }] } } });
    const current = await http<Trade>(app.url, 'POST', `/api/v1/trades/${trade.id}/transitions`, { key, body: { to: 'shipped' }, headers: { 'if-match': 'W/"2"' } });
    expect({ status: current.status, etag: current.headers.get('etag') }).toEqual({ status: 200, etag: 'W/"4"' });
  });
});
