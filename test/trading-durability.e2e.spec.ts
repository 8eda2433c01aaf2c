// kill -9 during a burst of trades, moves and holds on a few scarce items, then a restart: every
// item's counts add up to what its live trades and holds hold — no unit reserved twice, none
// leaked — and every acknowledged trade and hold is there.
import { createWorkspace, removeDir, startApp } from './support/app-process';
import { http } from './support/http';

interface Item {
  id: string;
  quantity: number;
  availableQuantity: number;
  reservedQuantity: number;
  soldQuantity: number;
}
interface Holder {
  id: string;
  inventoryItemId: string;
  quantity: number;
  status: string;
}

const ITEMS = 6;
const UNITS = 3;
const WRITERS = 8;
const LIVE_TRADE = new Set(['initiated', 'paid', 'shipped', 'delivered', 'disputed']);
const SOLD_TRADE = new Set(['completed', 'settled']);

describe('trading durability (e2e)', () => {
  it('keeps every unit accounted for across kill -9 in a burst of trades and holds', async () => {
    let app = await startApp();
    const dataDir = app.dataDir;
    const { apiKey: key } = await createWorkspace(dataDir, 'trading-durable');
    try {
      const items: string[] = [];
      for (let i = 0; i < ITEMS; i += 1) {
        const res = await http<Item>(app.url, 'POST', '/api/v1/inventory', { key, body: { cardName: 'Pikachu', setName: 'Jungle', condition: 'NM', price: 5, quantity: UNITS } });
        items.push(res.body.id);
      }
      const acked = { trades: [] as string[], holds: [] as string[] };
      let stopped = false;
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stopped; i += 1) {
          const inventoryItemId = items[(w + i) % ITEMS];
          try {
            if (i % 3 === 2) {
              const res = await http<Holder>(app.url, 'POST', '/api/v1/holds', {
                key,
                body: { inventoryItemId, depositAmount: 1, expiresAt: new Date(Date.now() + (i % 2 ? 300 : 3_600_000)).toISOString() },
              });
              if (res.status === 201) acked.holds.push(res.body.id);
            } else {
              const res = await http<Holder>(app.url, 'POST', '/api/v1/trades', { key, body: { inventoryItemId } });
              if (res.status !== 201) continue;
              acked.trades.push(res.body.id);
              const to = ['cancelled', 'paid', 'completed'][i % 3];
              const path = `/api/v1/trades/${res.body.id}/transitions`;
              if (to === 'completed') for (const step of ['paid', 'shipped', 'delivered', 'completed']) await http(app.url, 'POST', path, { key, body: { to: step } });
              else await http(app.url, 'POST', path, { key, body: { to } });
            }
          } catch {
            return; // the server is gone
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      // Killed mid-traffic: after 60 acknowledged writes, or 6 s — once more than 10 trades are in
      // (a busy machine may take longer to get there; 60 s only catches a hang).
      const deadline = Date.now() + 6_000;
      const hang = Date.now() + 60_000;
      while (acked.trades.length + acked.holds.length < 60 && (Date.now() < deadline || acked.trades.length <= 10) && Date.now() < hang) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await app.kill();
      stopped = true;
      await Promise.all(writers);
      expect(acked.trades.length).toBeGreaterThan(10);

      app = await startApp({ dataDir, env: { TIMER_POLL_MS: '50' } });
      const list = async <T>(path: string): Promise<T[]> => {
        const out: T[] = [];
        let cursor: string | null = null;
        do {
          const page: { status: number; body: { data: T[]; nextCursor: string | null } } = await http(app.url, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
          out.push(...page.body.data);
          cursor = page.body.nextCursor;
        } while (cursor);
        return out;
      };
      // Holds due during the outage expire now; wait until none of those is active.
      const waitUntil = Date.now() + 30_000;
      let holds = await list<Holder & { expiresAt: string }>('/api/v1/holds');
      while (holds.some((h) => h.status === 'active' && Date.parse(h.expiresAt) < Date.now()) && Date.now() < waitUntil) {
        await new Promise((r) => setTimeout(r, 100));
        holds = await list<Holder & { expiresAt: string }>('/api/v1/holds');
      }
      const trades = await list<Holder>('/api/v1/trades');
      for (const id of acked.trades) expect(trades.map((t) => t.id)).toContain(id);
      for (const id of acked.holds) expect(holds.map((h) => h.id)).toContain(id);

      const problems: string[] = [];
      for (const id of items) {
        const item = (await http<Item>(app.url, 'GET', `/api/v1/inventory/${id}`, { key })).body;
        const reserved =
          trades.filter((t) => t.inventoryItemId === id && LIVE_TRADE.has(t.status)).reduce((n, t) => n + t.quantity, 0) +
          holds.filter((h) => h.inventoryItemId === id && h.status === 'active').reduce((n, h) => n + h.quantity, 0);
        const sold = trades.filter((t) => t.inventoryItemId === id && SOLD_TRADE.has(t.status)).reduce((n, t) => n + t.quantity, 0);
        const counts = { reserved: item.reservedQuantity, sold: item.soldQuantity, available: item.availableQuantity };
        const expected = { reserved, sold, available: Math.max(0, UNITS - reserved - sold) };
        if (JSON.stringify(counts) !== JSON.stringify(expected)) problems.push(`${id}: ${JSON.stringify(counts)} ≠ ${JSON.stringify(expected)}`);
        if (reserved + sold > UNITS) problems.push(`${id}: ${reserved + sold} units held of ${UNITS}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await app.stop();
      removeDir(dataDir);
    }
  }, 90_000);
});
