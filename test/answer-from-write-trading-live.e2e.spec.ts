// Offers, holds, live selling and match runs answer from their own write, and concurrent repeats
// cannot make them lie: 20 identical answers, actions or moves sent at once all answer the state
// they leave, with exactly one event in the log; 20 that say different things: one is taken, the
// others are 409 naming the field. Every create answers itself, and its GET and list see it at once.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { type ErrorBody, http, type HttpResult } from './support/http';

interface Offer {
  id: string;
  status: string;
  amount: number;
  tradeId: string | null;
  counterOfferId: string | null;
  reason: string | null;
  thread?: Offer[];
}
interface Hold {
  id: string;
  status: string;
  depositStatus: string;
  depositReference: string | null;
  tradeId: string | null;
}
interface Lot {
  id: string;
  status: string;
  reserveCount: number;
}
interface Reserve {
  id: string;
  sequence: number;
  standing: string;
}
type Answer<T> = HttpResult<T & Partial<ErrorBody>>;

/** The event types of one stream, as the log holds them. */
function streamEvents(dataDir: string, streamId: string): string[] {
  const db = new DatabaseSync(join(dataDir, 'events.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT type FROM events WHERE stream_id = ? ORDER BY revision').all(streamId) as Array<{ type: string }>).map((r) => r.type);
  } finally {
    db.close();
  }
}

describe('answer from the write: offers, holds, live selling, match runs (e2e)', () => {
  let app: RunningApp;
  let key: string;
  let sku = 0;

  beforeAll(async () => {
    app = await startApp();
    key = (await createWorkspace(app.dataDir, 'answers-trading-live')).apiKey;
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
  });

  const call = <T>(method: string, path: string, body?: unknown) => http<T & Partial<ErrorBody>>(app.url, method, path, { key, body });
  const twenty = <T>(send: (i: number) => Promise<Answer<T>>) => Promise.all(Array.from({ length: 20 }, (_, i) => send(i)));
  const statuses = (answers: Array<Answer<unknown>>) => answers.map((a) => a.status);
  const ids = async (path: string) => ((await call<{ data: Array<{ id: string }> }>('GET', path)).body.data ?? []).map((d) => d.id);

  async function item(quantity = 1): Promise<string> {
    sku += 1;
    const created = await call<{ id: string }>('POST', '/api/v1/inventory', { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: 400, quantity, sku: `aw-${sku}` });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function offer(): Promise<Offer> {
    const made = await call<Offer>('POST', '/api/v1/offers', { inventoryItemId: await item(), amount: 380, from: 'buyer' });
    expect(made.status).toBe(201);
    return made.body;
  }

  async function hold(): Promise<Hold> {
    const placed = await call<Hold>('POST', '/api/v1/holds', { inventoryItemId: await item(), depositAmount: 50, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(placed.status).toBe(201);
    return placed.body;
  }

  /** Every answer a 409 CONFLICT naming `field`, but one 200. */
  function oneTakenOthersConflict<T>(answers: Array<Answer<T>>, field: string): Answer<T> {
    const taken = answers.filter((a) => a.status === 200);
    expect(taken).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { field } } });
    }
    return taken[0];
  }

  describe('offers', () => {
    it('a new offer answers itself, and its GET and list see it at once', async () => {
      const made = await offer();
      expect(made).toMatchObject({ status: 'pending', amount: 380 });
      expect((await call<Offer>('GET', `/api/v1/offers/${made.id}`)).body).toMatchObject({ id: made.id, status: 'pending', thread: [{ id: made.id }] });
      expect(await ids('/api/v1/offers')).toContain(made.id);
    });

    it('20 identical acceptances at once: every answer shows the offer accepted with the one trade, and the log holds one acceptance', async () => {
      const { id } = await offer();
      const answers = await twenty(() => call<Offer>('POST', `/api/v1/offers/${id}/accept`, {}));
      expect(statuses(answers)).toEqual(Array(20).fill(200));
      const tradeId = answers[0].body.tradeId;
      expect(tradeId).toMatch(/^trd_/);
      for (const answer of answers) expect(answer.body).toMatchObject({ id, status: 'accepted', tradeId });
      expect(streamEvents(app.dataDir, `offer-${id}`)).toEqual(['offer.created', 'offer.accepted']);
      expect((await call<{ data: Array<{ id: string; offerId: string | null }> }>('GET', '/api/v1/trades?limit=100')).body.data.filter((t) => t.offerId === id).map((t) => t.id)).toEqual([tradeId]);
    });

    it('20 rejections with different reasons at once: one is taken, the others are 409 naming the reason', async () => {
      const { id } = await offer();
      const answers = await twenty((i) => call<Offer>('POST', `/api/v1/offers/${id}/reject`, { reason: `reason ${i}` }));
      const taken = oneTakenOthersConflict(answers, 'reason');
      expect(taken.body).toMatchObject({ status: 'rejected' });
      for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.details).toMatchObject({ recorded: taken.body.reason });
      expect(streamEvents(app.dataDir, `offer-${id}`)).toEqual(['offer.created', 'offer.rejected']);
      expect((await call<Offer>('GET', `/api/v1/offers/${id}`)).body.reason).toBe(taken.body.reason);
    });

    it('20 identical counters at once: every answer shows the offer countered by the one counter-offer, and the thread holds two offers', async () => {
      const { id } = await offer();
      const answers = await twenty(() => call<Offer>('POST', `/api/v1/offers/${id}/counter`, { amount: 420, message: 'meet at 420?' }));
      expect(statuses(answers)).toEqual(Array(20).fill(200));
      const counterOfferId = answers[0].body.counterOfferId;
      for (const answer of answers) expect(answer.body).toMatchObject({ id, status: 'countered', counterOfferId });
      expect(streamEvents(app.dataDir, `offer-${id}`)).toEqual(['offer.created', 'offer.countered']);
      const thread = (await call<Offer>('GET', `/api/v1/offers/${id}`)).body.thread ?? [];
      expect(thread.map((o) => [o.id, o.status, o.amount])).toEqual([
        [id, 'countered', 380],
        [counterOfferId, 'pending', 420],
      ]);
    });

    it('20 counters with different amounts at once: one is taken, the others are 409 naming the amount', async () => {
      const { id } = await offer();
      const answers = await twenty((i) => call<Offer>('POST', `/api/v1/offers/${id}/counter`, { amount: 400 + i }));
      oneTakenOthersConflict(answers, 'amount');
      expect(streamEvents(app.dataDir, `offer-${id}`)).toEqual(['offer.created', 'offer.countered']);
    });
  });

  describe('holds', () => {
    it('a new hold answers itself, and its GET and list see it at once', async () => {
      const placed = await hold();
      expect(placed).toMatchObject({ status: 'active', depositStatus: 'due' });
      expect((await call<Hold>('GET', `/api/v1/holds/${placed.id}`)).body).toMatchObject({ id: placed.id, status: 'active' });
      expect(await ids('/api/v1/holds')).toContain(placed.id);
    });

    it('20 identical releases at once: every answer shows the hold released, and the log holds one release', async () => {
      const { id } = await hold();
      const answers = await twenty(() => call<Hold>('POST', `/api/v1/holds/${id}/release`, { reason: 'changed their mind' }));
      expect(statuses(answers)).toEqual(Array(20).fill(200));
      for (const answer of answers) expect(answer.body).toMatchObject({ id, status: 'released' });
      expect(streamEvents(app.dataDir, `hold-${id}`)).toEqual(['hold.created', 'hold.released']);
    });

    it('20 deposits with different references at once: one is taken, the others are 409 naming the reference', async () => {
      const { id } = await hold();
      const answers = await twenty((i) => call<Hold>('POST', `/api/v1/holds/${id}/deposit`, { reference: `pi_${i}` }));
      const taken = oneTakenOthersConflict(answers, 'reference');
      expect(taken.body).toMatchObject({ depositStatus: 'paid' });
      expect(streamEvents(app.dataDir, `hold-${id}`)).toEqual(['hold.created', 'hold.deposit_paid']);
      expect((await call<Hold>('GET', `/api/v1/holds/${id}`)).body.depositReference).toBe(taken.body.depositReference);
    });

    it('20 identical conversions at once: every answer shows the hold converted into the one trade', async () => {
      const { id } = await hold();
      const answers = await twenty(() => call<Hold>('POST', `/api/v1/holds/${id}/convert`));
      expect(statuses(answers)).toEqual(Array(20).fill(200));
      const tradeId = answers[0].body.tradeId;
      for (const answer of answers) expect(answer.body).toMatchObject({ id, status: 'converted', tradeId });
      expect(streamEvents(app.dataDir, `hold-${id}`)).toEqual(['hold.created', 'hold.converted']);
      expect((await call<{ status: string }>('GET', `/api/v1/trades/${tradeId}`)).body.status).toBe('initiated');
    });
  });

  describe('live selling', () => {
    it('a session, a lot and reserves answer themselves; their GETs and lists see each at once; 20 identical moves leave one event each', async () => {
      const created = await call<{ id: string; status: string; lotCount: number }>('POST', '/api/v1/live-sessions', { title: 'answers' });
      expect(created).toMatchObject({ status: 201, body: { status: 'scheduled', lotCount: 0 } });
      const sessionId = created.body.id;
      expect((await call<{ status: string }>('GET', `/api/v1/live-sessions/${sessionId}`)).body.status).toBe('scheduled');
      expect(await ids('/api/v1/live-sessions')).toContain(sessionId);

      const started = await twenty(() => call<{ status: string }>('POST', `/api/v1/live-sessions/${sessionId}/start`));
      expect(started.map((a) => [a.status, a.body.status])).toEqual(Array(20).fill([200, 'live']));

      const added = await call<Lot>('POST', `/api/v1/live-sessions/${sessionId}/lots`, { inventoryItemId: await item(), startingPrice: 100, increment: 1 });
      expect(added).toMatchObject({ status: 201, body: { status: 'pending', reserveCount: 0 } });
      const lotPath = `/api/v1/live-sessions/${sessionId}/lots/${added.body.id}`;
      expect((await call<Lot>('GET', lotPath)).body.status).toBe('pending');
      expect(await ids(`/api/v1/live-sessions/${sessionId}/lots`)).toEqual([added.body.id]);
      expect((await call<{ lotCount: number }>('GET', `/api/v1/live-sessions/${sessionId}`)).body.lotCount).toBe(1);

      const opened = await twenty(() => call<Lot>('POST', `${lotPath}/open`));
      expect(opened.map((a) => [a.status, a.body.status])).toEqual(Array(20).fill([200, 'open']));

      for (let n = 1; n <= 5; n += 1) {
        const placed = await call<Reserve>('POST', `${lotPath}/reserves`, { buyer: { externalId: `bidder-${n}` }, amount: 100 + n });
        expect(placed).toMatchObject({ status: 201, body: { sequence: n, standing: 'leading' } });
        const listed = (await call<{ data: Reserve[] }>('GET', `${lotPath}/reserves`)).body.data;
        expect(listed.map((r) => [r.id, r.standing])).toContainEqual([placed.body.id, 'leading']);
        expect(listed).toHaveLength(n);
        expect((await call<Lot>('GET', lotPath)).body.reserveCount).toBe(n);
      }

      const closed = await twenty(() => call<Lot>('POST', `${lotPath}/close`));
      expect(closed.map((a) => [a.status, a.body.status])).toEqual(Array(20).fill([200, 'closed']));
      const ended = await twenty(() => call<{ status: string }>('POST', `/api/v1/live-sessions/${sessionId}/end`));
      expect(ended.map((a) => [a.status, a.body.status])).toEqual(Array(20).fill([200, 'ended']));

      expect(streamEvents(app.dataDir, `live_session-${sessionId}`)).toEqual(['live_session.created', 'live_session.started', 'live_session.lot_added', 'live_session.ended']);
      expect(streamEvents(app.dataDir, `lot-${added.body.id}`).filter((t) => t !== 'reserve.placed' && t !== 'lot.settled')).toEqual(['lot.added', 'lot.opened', 'lot.closed']);
    });
  });

  describe('ETag and If-Match', () => {
    const send = <T>(method: string, path: string, ifMatch?: string, body?: unknown) =>
      http<T & Partial<ErrorBody>>(app.url, method, path, { key, body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

    /** Creates with `create`, then: the GET says the create's version; a write on it moves on; the same version again is 412, nothing changed. */
    async function versioned(created: HttpResult<{ id: string }>, path: string, write: { path: string; body?: unknown }, again: { path: string; body?: unknown }) {
      const first = created.headers.get('etag');
      expect(first).toBe('W/"0"');
      expect((await send('GET', path)).headers.get('etag')).toBe(first);
      const moved = await send<{ id: string }>('POST', write.path, first ?? '', write.body);
      expect(moved.status).toBe(200);
      const now = moved.headers.get('etag');
      expect(now).toMatch(/^W\/"[1-9]\d*"$/);
      const refused = await send('POST', again.path, first ?? '', again.body);
      expect(refused).toMatchObject({ status: 412, body: { code: 'PRECONDITION_FAILED', details: { expectedETag: first, currentETag: now } } });
      expect((await send('GET', path)).headers.get('etag')).toBe(now);
    }

    it('offers, holds, sessions, lots and match packs carry their version; a write on a version that moved on is 412', async () => {
      const made = await send<Offer>('POST', '/api/v1/offers', undefined, { inventoryItemId: await item(), amount: 380, from: 'buyer' });
      await versioned(made, `/api/v1/offers/${made.body.id}`, { path: `/api/v1/offers/${made.body.id}/counter`, body: { amount: 420 } }, { path: `/api/v1/offers/${made.body.id}/reject` });

      const placed = await send<Hold>('POST', '/api/v1/holds', undefined, { inventoryItemId: await item(), depositAmount: 50, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      await versioned(placed, `/api/v1/holds/${placed.body.id}`, { path: `/api/v1/holds/${placed.body.id}/deposit`, body: { reference: 'pi_1' } }, { path: `/api/v1/holds/${placed.body.id}/release` });

      const session = await send<{ id: string }>('POST', '/api/v1/live-sessions', undefined, { title: 'versions' });
      const sessionPath = `/api/v1/live-sessions/${session.body.id}`;
      await versioned(session, sessionPath, { path: `${sessionPath}/start` }, { path: `${sessionPath}/end` });

      const lot = await send<Lot>('POST', `${sessionPath}/lots`, undefined, { inventoryItemId: await item(), startingPrice: 100 });
      const lotPath = `${sessionPath}/lots/${lot.body.id}`;
      await versioned(lot, lotPath, { path: `${lotPath}/open` }, { path: `${lotPath}/close` });

      const request = await call<{ id: string }>('POST', '/api/v1/buyer-requests', { cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPrice: 450 });
      const run = await send<{ id: string }>('POST', '/api/v1/match-runs', undefined, { buyerRequestId: request.body.id });
      expect(run.headers.get('etag')).toBe('W/"0"');
      expect((await send('GET', `/api/v1/match-packs/${run.body.id}`)).headers.get('etag')).toBe('W/"0"');
    });

    it('a repeat on the current version is the no-op it always was, answered with that version', async () => {
      const { id } = await hold();
      const released = await send<Hold>('POST', `/api/v1/holds/${id}/release`, 'W/"0"');
      expect({ status: released.status, etag: released.headers.get('etag') }).toEqual({ status: 200, etag: 'W/"1"' });
      const again = await send<Hold>('POST', `/api/v1/holds/${id}/release`, 'W/"1"');
      expect({ status: again.status, etag: again.headers.get('etag'), hold: again.body.status }).toEqual({ status: 200, etag: 'W/"1"', hold: 'released' });
    });
  });

  describe('match runs', () => {
    it('a run answers its pack, which its GET and list see at once; a trade on a match it answered opens at once', async () => {
      const stock = await item();
      const request = await call<{ id: string }>('POST', '/api/v1/buyer-requests', { cardName: 'Charizard', setName: 'Base', condition: 'NM', maxPrice: 450 });
      expect(request.status).toBe(201);
      const run = await call<{ id: string; matches: Array<{ id: string; inventoryItemId: string; kind: string }> }>('POST', '/api/v1/match-runs', { buyerRequestId: request.body.id });
      expect(run.status).toBe(201);
      expect((await call<{ id: string }>('GET', `/api/v1/match-packs/${run.body.id}`)).body.id).toBe(run.body.id);
      expect(await ids(`/api/v1/match-packs?buyerRequestId=${request.body.id}`)).toEqual([run.body.id]);
      const match = run.body.matches.find((m) => m.inventoryItemId === stock && m.kind === 'full');
      expect(match).toBeDefined();
      const trade = await call<{ matchId: string; buyerRequestId: string; inventoryItemId: string }>('POST', '/api/v1/trades', { matchId: match?.id });
      expect(trade).toMatchObject({ status: 201, body: { matchId: match?.id, buyerRequestId: request.body.id, inventoryItemId: stock } });
    });
  });
});
