// Every request answered 2xx before a kill -9 is there after the restart, and the read models
// catch up from their checkpoints to exactly what the log holds.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, startApp } from './support/app-process';
import { http } from './support/http';

function countRows(dataDir: string, file: string, sql: string): number {
  const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('durability (e2e)', () => {
  it('keeps every acknowledged write across kill -9 and resumes projections', async () => {
    const first = await startApp();
    const { apiKey } = await createWorkspace(first.dataDir, 'durable');
    const acknowledged: string[] = [];
    let stop = false;

    // 8 concurrent writers hammer the API; the server is killed while requests are in flight.
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i += 1) {
        try {
          const res = await http<{ id: string }>(first.url, 'POST', '/api/v1/buyer-requests', {
            key: apiKey,
            body: { cardName: `Card ${w}-${i}`, setName: 'Base', condition: 'NM', maxPrice: 1 },
          });
          if (res.status === 201) acknowledged.push(res.body.id);
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    const deadline = Date.now() + 10000;
    while (acknowledged.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await first.kill();
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);

    const created = countRows(first.dataDir, 'events.db', "SELECT count(*) AS n FROM events WHERE type = 'buyer_request.created'");
    expect(created).toBeGreaterThanOrEqual(acknowledged.length);

    const second = await startApp({ dataDir: first.dataDir });
    try {
      for (const id of acknowledged) {
        const res = await http(second.url, 'GET', `/api/v1/buyer-requests/${id}`, { key: apiKey });
        expect(res.status).toBe(200);
      }
      // The read model holds exactly what the log holds: nothing lost, nothing applied twice.
      const deadline2 = Date.now() + 5000;
      let rows = 0;
      while (Date.now() < deadline2) {
        rows = countRows(first.dataDir, 'read.db', 'SELECT count(*) AS n FROM "c_buyer_requests"');
        if (rows === created) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(rows).toBe(created);
      const status = await cli(first.dataDir, ['projections', 'status']);
      for (const p of status.json<{ projections: Array<{ lag: number }> }>().projections) expect(p.lag).toBe(0);
    } finally {
      await second.stop();
      removeDir(first.dataDir);
    }
  });
});
