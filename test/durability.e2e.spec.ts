// Every request answered 2xx before a kill -9 is there after the restart, and the read models
// catch up from their checkpoints to exactly what the log holds — over three rounds of kill -9 on
// the same DATA_DIR, with buyer requests, inventory (which reverse matching answers with
// `buyer_request.matches_recorded`) and archives in flight.
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

import { cli, createWorkspace, removeDir, type RunningApp, startApp } from './support/app-process';
import { http } from './support/http';

const ROUNDS = 3;
const WRITERS = 8;

function countRows(dataDir: string, file: string, sql: string): number {
  const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

interface Acknowledged {
  requests: string[];
  items: string[];
  archived: string[];
}

/** Writers hammer the API until the server is gone; each remembers what was answered 2xx. */
function hammer(app: RunningApp, key: string, round: number, acked: Acknowledged): { stop(): Promise<void> } {
  let stopped = false;
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; !stopped; i += 1) {
      try {
        if (i % 4 === 3) {
          const res = await http<{ id: string }>(app.url, 'POST', '/api/v1/inventory', {
            key,
            body: { cardName: `Card ${round}-${w}-${i - 1}`, setName: 'Base', condition: 'NM', price: 1 },
          });
          if (res.status === 201) acked.items.push(res.body.id);
        } else if (i % 4 === 2 && acked.requests.length > 0) {
          const id = acked.requests[(w * 7919 + i) % acked.requests.length];
          const res = await http(app.url, 'POST', `/api/v1/buyer-requests/${id}/archive`, { key });
          if (res.status === 200) acked.archived.push(id);
        } else {
          const res = await http<{ id: string }>(app.url, 'POST', '/api/v1/buyer-requests', {
            key,
            body: { cardName: `Card ${round}-${w}-${i}`, setName: 'Base', condition: 'NM', maxPrice: 2 },
          });
          if (res.status === 201) acked.requests.push(res.body.id);
        }
      } catch {
        return; // connection refused or reset: the server is gone
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(writers);
    },
  };
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe('durability (e2e)', () => {
  it(`keeps every acknowledged write across ${ROUNDS} rounds of kill -9 and resumes projections`, async () => {
    let app = await startApp();
    const dataDir = app.dataDir;
    const { apiKey: key } = await createWorkspace(dataDir, 'durable');
    const acked: Acknowledged = { requests: [], items: [], archived: [] };
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const before = acked.requests.length + acked.items.length;
        const load = hammer(app, key, round, acked);
        await until(() => acked.requests.length + acked.items.length - before >= 300, 10000);
        await app.kill(); // while requests are in flight
        await load.stop();
        expect(acked.requests.length + acked.items.length - before).toBeGreaterThanOrEqual(100);

        app = await startApp({ dataDir });
        // Every write acknowledged in any round so far is there, as it was answered.
        const problems: string[] = [];
        for (const id of acked.requests) {
          const res = await http<{ status: string }>(app.url, 'GET', `/api/v1/buyer-requests/${id}`, { key });
          if (res.status !== 200) problems.push(`${id}: ${res.status}`);
          else if (acked.archived.includes(id) && res.body.status !== 'archived') problems.push(`${id} not archived`);
        }
        for (const id of acked.items) {
          const res = await http(app.url, 'GET', `/api/v1/inventory/${id}`, { key });
          if (res.status !== 200) problems.push(`${id}: ${res.status}`);
        }
        expect({ round, problems }).toEqual({ round, problems: [] });

        // The read models hold exactly what the log holds: nothing lost, nothing applied twice.
        const logged = (type: string): number => countRows(dataDir, 'events.db', `SELECT count(*) AS n FROM events WHERE type = '${type}'`);
        const requests = logged('buyer_request.created');
        const items = logged('inventory.created');
        expect(requests).toBeGreaterThanOrEqual(acked.requests.length);
        expect(items).toBeGreaterThanOrEqual(acked.items.length);
        const read = (collection: string): number => countRows(dataDir, 'read.db', `SELECT count(*) AS n FROM "${collection}"`);
        await until(() => read('c_buyer_requests') === requests && read('c_inventory_items') === items, 5000);
        expect({ round, requests: read('c_buyer_requests'), items: read('c_inventory_items') }).toEqual({ round, requests, items });
      }
      // Every projection (matches, public events, deliveries…) catches up to the end of the log.
      type Status = { projections: Array<{ name: string; lag: number }> };
      let lagging: Array<{ name: string; lag: number }> = [];
      const deadline = Date.now() + 10000;
      do {
        lagging = (await cli(dataDir, ['projections', 'status'])).json<Status>().projections.filter((p) => p.lag !== 0);
      } while (lagging.length > 0 && Date.now() < deadline);
      expect(lagging).toEqual([]);
    } finally {
      await app.stop();
      removeDir(dataDir);
    }
  }, 120000);
});
