// Signed webhooks end to end, when receivers fail: time-outs, isolation between endpoints, replay
// from the log, 410, disabling after a day of failures, a receiver closing idle keep-alive connections,
// and the retry schedule across a restart.
import { createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http, until } from './support/http';
import { SESSIONS } from './support/intake';
import { dropAfterIdle, KeepAliveReceiver } from './support/keep-alive-receiver';
import { WebhookReceiver } from './support/webhook-receiver';
import { type Delivery, deliveryEvents, ENV, type Envelope, envelopeOf, SCHEDULE_MS, signedWith, sleep, webhookCalls } from './support/webhooks';

describe('webhooks (e2e)', () => {
  const receiver = new WebhookReceiver();
  let app: RunningApp;
  const { subscribe, addItem, deliveries } = webhookCalls(() => app, receiver);

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({ env: ENV });
  });

  afterAll(async () => {
    await app.stop();
    removeDir(app.dataDir);
    await receiver.stop();
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-timeout');
    receiver.on('/hang', () => ({ hang: true }));
    const hook = await subscribe(key, '/hang', ['inventory.created']);
    await addItem(key);
    const [delivery] = await until('a recorded time-out', async () => {
      const found = await deliveries(key, hook.id);
      return found[0]?.attempts.length ? found : undefined;
    });
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, outcome: 'failed', statusCode: null, error: 'timeout after 400 ms' });
    // It waited its 400 ms (a lower bound: how much longer a busy machine takes is not the test's).
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(390);
    await http(app.url, 'DELETE', `/api/v1/webhooks/${hook.id}`, { key });
  });

  it('keeps delivering to a healthy endpoint while another one times out', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-isolation');
    receiver.on('/slow', () => ({ hang: true }));
    const slow = await subscribe(key, '/slow', ['inventory.created']);
    // 30 deliveries to /slow at once (one intake push): four rounds of 400 ms time-outs, 8 at a
    // time (its endpoint's share), however fast the app appends.
    const session = (await http<{ id: string }>(app.url, 'POST', SESSIONS, { key, body: { name: 'backlog' } })).body;
    const rows = Array.from({ length: 30 }, (_, i) => ({ cardName: `Pikachu ${i}`, setName: 'Base', condition: 'NM', price: 10 + i }));
    expect((await http(app.url, 'POST', `${SESSIONS}/${session.id}/items`, { key, body: rows })).status).toBe(200);
    expect((await http(app.url, 'POST', `${SESSIONS}/${session.id}/push`, { key })).status).toBe(200);
    await until('/slow holding its 8 sockets', async () => (receiver.hangingNow >= 8 ? true : undefined));
    // Both on one host:port (one socket pool): /fast never waits for a socket /slow holds, so its
    // deliveries arrive while /slow's 8 hang — had it waited for one of them, it would have come
    // only once that one had timed out (7 or fewer hanging). No bound on the app's speed.
    await subscribe(key, '/fast', ['inventory.created']);
    for (let i = 0; i < 3; i += 1) await addItem(key, `Raichu ${i}`);
    const fast = await receiver.waitFor('/fast', 3, 30_000);
    expect(Math.max(...fast.map((r) => r.hangingAtArrival))).toBeGreaterThanOrEqual(8);
    await http(app.url, 'DELETE', `/api/v1/webhooks/${slow.id}`, { key });
  });

  it('replays from the log: the same evt_ id and the same bytes', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-replay');
    const hook = await subscribe(key, '/replay', ['inventory.created']);
    await addItem(key);
    const [original] = await receiver.waitFor('/replay', 1);
    const id = envelopeOf(original).id;
    const replay = await http<{ scheduled: number; eventIds: string[] }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: { eventIds: [id] } });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ scheduled: 1, eventIds: [id] });
    const [, again] = await receiver.waitFor('/replay', 2);
    expect(again.headers['webhook-id']).toBe(id);
    expect(again.body).toBe(original.body);
    expect(signedWith(again, hook.secret)).toEqual({ spec: true, standard: true });

    const byRange = await http<{ scheduled: number; skipped: unknown[] }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, {
      key,
      body: { from: new Date(Date.now() - 60_000).toISOString(), types: ['inventory.created'] },
    });
    expect(byRange.body).toMatchObject({ scheduled: 1 });
    await receiver.waitFor('/replay', 3);
    const unknown = await http<{ skipped: Array<{ reason: string }> }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, {
      key,
      body: { eventIds: [`evt_${'0'.repeat(32)}`] },
    });
    expect(unknown.body.skipped).toEqual([{ eventId: `evt_${'0'.repeat(32)}`, reason: 'not_found' }]);
    expect((await http(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: {} })).status).toBe(400);
  });

  it('a request\'s matches, one stored event: one delivery per public event (matched, then each match.created), listed and replayed by their own ids', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-fan-out');
    const hook = await subscribe(key, '/fan-out', ['buyer_request.matched', 'match.created']);
    await addItem(key, 'Blastoise');
    await addItem(key, 'Blastoise');
    const request = await http<{ id: string; matchCount: number }>(app.url, 'POST', '/api/v1/buyer-requests', {
      key,
      body: { cardName: 'Blastoise', setName: 'Base', condition: 'NM', maxPrice: 450 },
    });
    expect(request.body.matchCount).toBe(2);
    const received = await receiver.waitFor('/fan-out', 3);
    const envelopes = received.map(envelopeOf);
    expect(envelopes.map((e) => e.type).sort()).toEqual(['buyer_request.matched', 'match.created', 'match.created']);
    const ids = envelopes.map((e) => e.id);
    expect(new Set(ids).size).toBe(3);
    for (const r of received) expect(signedWith(r, hook.secret)).toEqual({ spec: true, standard: true });
    for (const r of received) expect(r.headers['webhook-id']).toBe(envelopeOf(r).id);
    const matched = envelopes.find((e) => e.type === 'buyer_request.matched');
    expect(matched?.data).toMatchObject({ buyer_request_id: request.body.id, match_count: 2 });
    expect(envelopes.filter((e) => e.type === 'match.created').map((e) => e.data.inventory_item_id).sort()).toEqual([...(matched?.data.inventory_item_ids as string[])].sort());

    // The public events list shows the same three, newest first: the match.created, then matched.
    const fromTheWrite = await until('the three listed', async () => {
      const listed = await http<{ data: Envelope[] }>(app.url, 'GET', '/api/v1/events?limit=10', { key });
      const mine = listed.body.data.filter((e) => ids.includes(e.id));
      return mine.length === 3 ? mine : undefined;
    });
    expect(fromTheWrite.map((e) => e.type)).toEqual(['match.created', 'match.created', 'buyer_request.matched']);
    expect(fromTheWrite.map((e) => JSON.stringify(e)).sort()).toEqual(received.map((r) => JSON.stringify(JSON.parse(r.body))).sort());

    // A replay of one of them sends that one again, the same id and the same bytes.
    const one = received.find((r) => envelopeOf(r).type === 'match.created');
    const replay = await http<{ scheduled: number; eventIds: string[] }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: { eventIds: [envelopeOf(one!).id] } });
    expect(replay.body).toMatchObject({ scheduled: 1, eventIds: [envelopeOf(one!).id] });
    const [, , , again] = await receiver.waitFor('/fan-out', 4);
    expect(again.headers['webhook-id']).toBe(envelopeOf(one!).id);
    expect(again.body).toBe(one!.body);
    // One delivery per public event (the replay a new cycle of the same one).
    const listedDeliveries = await deliveries(key, hook.id);
    expect(listedDeliveries.map((d) => d.eventId).sort()).toEqual([...ids].sort());
  });

  it('a 410 disables the webhook at once; re-enabling offers the missed range to replay', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-gone');
    receiver.on('/gone', (n) => (n === 1 ? { status: 410, body: 'gone' } : { status: 200 }));
    const hook = await subscribe(key, '/gone', ['inventory.created']);
    await addItem(key);
    const disabled = await until('the webhook disabled', async () => {
      const res = await http<{ status: string; disabledReason: string }>(app.url, 'GET', `/api/v1/webhooks/${hook.id}`, { key });
      return res.body.status === 'disabled' ? res.body : undefined;
    });
    expect(disabled.disabledReason).toBe('gone');
    const [failed] = await deliveries(key, hook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: [expect.objectContaining({ statusCode: 410 })] });

    const missed = await addItem(key, 'Missed Mew');
    await sleep(600);
    expect(receiver.at('/gone')).toHaveLength(1);

    const enabled = await http<{ status: string; missedWhileDisabled: { from: string; to: string } }>(app.url, 'PATCH', `/api/v1/webhooks/${hook.id}`, {
      key,
      body: { enabled: true },
    });
    expect(enabled.body.status).toBe('enabled');
    const replay = await http<{ scheduled: number }>(app.url, 'POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body: enabled.body.missedWhileDisabled });
    expect(replay.body.scheduled).toBe(1);
    const [, second] = await receiver.waitFor('/gone', 2);
    expect(envelopeOf(second).data.inventory_item_id).toBe(missed.body.id);
  });

  it('disables a webhook whose every attempt failed for WEBHOOK_DISABLE_AFTER (24 h, scaled)', async () => {
    const SCALED_SCHEDULE_ATTEMPTS = 4;
    const scaled = await startApp({ env: { ...ENV, WEBHOOK_RETRY_SCHEDULE: '0,600ms,600ms,600ms', WEBHOOK_DISABLE_AFTER: '1s' } });
    try {
      const { apiKey: key } = await createWorkspace(scaled.dataDir, 'wh-failing');
      receiver.on('/down', () => ({ status: 500, body: 'down' }));
      const res = await http<{ id: string }>(scaled.url, 'POST', '/api/v1/webhooks', { key, body: { url: receiver.url('/down'), events: ['inventory.created'] } });
      await http(scaled.url, 'POST', '/api/v1/inventory', { key, body: { cardName: 'Onix', setName: 'Base', condition: 'NM', price: 1 } });
      const disabled = await until('the webhook disabled', async () => {
        const hook = await http<{ status: string; disabledReason: string; failingSince: string | null }>(scaled.url, 'GET', `/api/v1/webhooks/${res.body.id}`, { key });
        return hook.body.status === 'disabled' ? hook.body : undefined;
      });
      expect(disabled.disabledReason).toBe('failing');
      expect(disabled.failingSince).not.toBeNull();
      // Attempts 1-3 are due 0, 0.6 and 1.2 s in: the first attempt that finds the endpoint failing
      // for 1 s or more (the third, unless a busy machine delayed the second past it) disables it,
      // and nothing is sent after — the fourth attempt, due 0.6 s later, never comes.
      await sleep(1500);
      const [delivery] = (await http<{ data: Delivery[] }>(scaled.url, 'GET', `/api/v1/webhooks/${res.body.id}/deliveries`, { key })).body.data;
      expect(delivery).toMatchObject({ status: 'failed', failureReason: 'webhook_disabled' });
      const failedFor = delivery.attempts.filter((a) => a.attempt !== null).map((a) => Date.parse(a.attemptedAt) - Date.parse(delivery.attempts[0].attemptedAt));
      expect(failedFor.length).toBeGreaterThanOrEqual(2);
      expect(failedFor.length).toBeLessThan(SCALED_SCHEDULE_ATTEMPTS);
      expect(failedFor.slice(0, -1).every((ms) => ms < 1000)).toBe(true);
      expect(failedFor[failedFor.length - 1]).toBeGreaterThanOrEqual(1000);
      expect(receiver.at('/down')).toHaveLength(failedFor.length);
    } finally {
      await scaled.stop();
      removeDir(scaled.dataDir);
    }
  });

  it('loses no attempt to a keep-alive connection the receiver closed while idle: one attempt per delivery, each received once', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-stale-socket');
    // The receiver drops a request arriving on a connection idle for 200 ms or more (its keep-alive timeout
    // meeting the next delivery); deliveries come 400 ms apart, under the sender's own 4 s idle expiry.
    const stale = await new KeepAliveReceiver(dropAfterIdle(200)).start();
    try {
      const res = await http<{ id: string }>(app.url, 'POST', '/api/v1/webhooks', { key, body: { url: stale.url('/stale'), events: ['inventory.created'] } });
      expect(res.status).toBe(201);
      for (const name of ['Eevee', 'Vaporeon', 'Jolteon', 'Flareon']) {
        await addItem(key, name);
        await until(`${name} answered`, async () => stale.answered.some((body) => body.includes(name)) || undefined);
        await sleep(400);
      }
      const found = await until('four deliveries recorded', async () => {
        const list = await deliveries(key, res.body.id);
        return list.length === 4 && list.every((d) => d.status !== 'pending') ? list : undefined;
      });
      for (const delivery of found) {
        expect(delivery).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ attempt: 1, outcome: 'succeeded', statusCode: 200, error: null })] });
      }
      expect(new Set(stale.answered.map((body) => (JSON.parse(body) as { id: string }).id)).size).toBe(4);
      expect(stale.answered).toHaveLength(4);
      // The 2nd delivery met the idle connection 1, dropped, and went out again on connection 2 (not pooled: the
      // retry always opens a new one); the 3rd opened connection 3; the 4th met it idle, and went out again on 4.
      expect(stale.arrivals.map((a) => [a.connection, a.onConnection])).toEqual([[1, 1], [1, 2], [2, 1], [3, 1], [3, 2], [4, 1]]);
    } finally {
      await stale.stop();
    }
  });

  // Last: it restarts the app.
  it('retries a failing receiver at the schedule\'s offsets, across a restart, without repeating an attempt', async () => {
    const { apiKey: key } = await createWorkspace(app.dataDir, 'wh-retry');
    receiver.on('/flaky', (n) => (n < SCHEDULE_MS.length ? { status: 500, body: `down ${n}` } : { status: 200, body: 'back' }));
    const hook = await subscribe(key, '/flaky', ['inventory.created']);
    await addItem(key);
    await receiver.waitFor('/flaky', 2, 60_000);
    // Attempt 2 is in; stop mid-schedule (attempt 3 is due 3 s later) and start again.
    await until('attempt 2 recorded', async () => (await deliveries(key, hook.id))[0]?.attempts.length === 2 || undefined, 60_000);
    await app.stop();
    app = await startApp({ dataDir: app.dataDir, env: ENV });
    const arrivals = (await receiver.waitFor('/flaky', SCHEDULE_MS.length, 60_000)).map((r) => r.at);
    await sleep(SCHEDULE_MS[3] + 500);
    expect(receiver.at('/flaky')).toHaveLength(SCHEDULE_MS.length);
    const bodies = new Set(receiver.at('/flaky').map((r) => r.body));
    expect(bodies.size).toBe(1);
    const [delivery] = await until('the success recorded', async () => {
      const found = await deliveries(key, hook.id);
      return found[0]?.status === 'succeeded' ? found : undefined;
    });
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 200],
    ]);
    const failed = await deliveries(key, hook.id, '?status=failed');
    expect(failed).toEqual([]);

    // The schedule the app computed, from its log: the first attempt due at once, each retry
    // due its offset after the attempt before — the one across the restart too (the restarted
    // app kept the due time; it did not schedule again). No upper bound on when an attempt
    // actually went out: a busy machine may be late, never early.
    const log = deliveryEvents(app.dataDir, delivery.id);
    expect(log.map((e) => e.type)).toEqual([
      'webhook.delivery_scheduled',
      'webhook.delivery_attempted',
      'webhook.delivery_attempted',
      'webhook.delivery_attempted',
      'webhook.delivery_succeeded',
    ]);
    const ms = (iso: string | undefined) => Date.parse(iso ?? '');
    const [scheduled, ...attempts] = log.map((e) => e.data);
    expect(ms(scheduled.dueAt) - ms(scheduled.scheduledAt)).toBe(SCHEDULE_MS[0]);
    const due = [ms(scheduled.dueAt), ...attempts.slice(0, -1).map((a) => ms(a.nextAttemptAt))];
    attempts.slice(0, -1).forEach((a, i) => expect(ms(a.nextAttemptAt) - ms(a.attemptedAt)).toBe(SCHEDULE_MS[i + 1]));
    // Each attempt went out at or after its due time, and so reached the receiver no sooner
    // than its offset after the one before.
    attempts.forEach((a, i) => expect(ms(a.attemptedAt)).toBeGreaterThanOrEqual(due[i]));
    for (let i = 1; i < arrivals.length; i += 1) expect(arrivals[i] - arrivals[i - 1]).toBeGreaterThanOrEqual(SCHEDULE_MS[i] - 50);
  }, 180_000);
});
