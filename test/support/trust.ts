// Making a workspace a seller with a trust credential, over HTTP: a trade on a fresh item taken
// through its moves (completed by default), and waiting for the process manager to issue.
import { http, until } from './http';

export const COMPLETE_MOVES = [{ to: 'paid' }, { to: 'shipped' }, { to: 'delivered' }, { to: 'completed' }];

/** A trade on a fresh item moved along `moves`; returns its id. */
export async function tradeThrough(baseUrl: string, key: string, moves: Array<Record<string, unknown>> = COMPLETE_MOVES, price = 100): Promise<string> {
  const item = await http<{ id: string }>(baseUrl, 'POST', '/api/v1/inventory', { key, body: { cardName: 'Pikachu', setName: 'Base', condition: 'Near Mint', price } });
  if (item.status !== 201) throw new Error(`inventory: ${item.status} ${item.text}`);
  const opened = await http<{ id: string }>(baseUrl, 'POST', '/api/v1/trades', { key, body: { inventoryItemId: item.body.id } });
  if (opened.status !== 201) throw new Error(`trade: ${opened.status} ${opened.text}`);
  for (const move of moves) {
    const moved = await http(baseUrl, 'POST', `/api/v1/trades/${opened.body.id}/transitions`, { key, body: move });
    if (moved.status !== 200) throw new Error(`move ${JSON.stringify(move)}: ${moved.status} ${moved.text}`);
  }
  return opened.body.id;
}

/** Completes a trade and waits for the seller's first credential; returns its slug and workspace id. */
export async function becomeSeller(baseUrl: string, key: string): Promise<{ slug: string; workspaceId: string }> {
  await tradeThrough(baseUrl, key);
  const score = await until('the seller\'s first credential', async () => {
    const res = await http<{ slug: string; sellerId: string }>(baseUrl, 'GET', '/api/v1/trust/score', { key });
    return res.status === 200 ? res.body : undefined;
  });
  return { slug: score.slug, workspaceId: score.sellerId };
}
