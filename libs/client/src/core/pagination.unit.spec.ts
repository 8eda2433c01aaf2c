// Pagination: a PagePromise awaited is the first page, iterated is every item of every page, each
// page fetched only when needed and the last one at `nextCursor: null`; over a fetcher, and over
// list routes of a fake API (node:http on 127.0.0.1) through the transport.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CommerceError, NotFoundError } from './errors';
import { Page, type PageData, paginate, paginateList } from './pagination';
import { Transport } from './transport';

/** Three pages of ids 1..7 (3, 3, 1), recording the cursor of each fetch. */
function pagesOf(total = 7, size = 3) {
  const cursors: Array<string | undefined> = [];
  const fetcher = async (cursor: string | undefined): Promise<PageData<number>> => {
    cursors.push(cursor);
    const start = cursor === undefined ? 0 : Number(cursor.slice('c'.length));
    const items = Array.from({ length: Math.min(size, total - start) }, (_, i) => start + i + 1);
    const next = start + size;
    return { items, nextCursor: next < total ? `c${next}` : null };
  };
  return { fetcher, cursors };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('paginate', () => {
  it('fetches nothing until awaited or iterated', async () => {
    const { fetcher, cursors } = pagesOf();
    const list = paginate(fetcher);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cursors).toEqual([]);
    await list;
    expect(cursors).toEqual([undefined]);
  });

  it('awaits to the first page', async () => {
    const { fetcher } = pagesOf();
    const page = await paginate(fetcher);
    expect(page).toBeInstanceOf(Page);
    expect(page.items).toEqual([1, 2, 3]);
    expect(page.data).toBe(page.items);
    expect(page.nextCursor).toBe('c3');
    expect(page.hasMore).toBe(true);
  });

  it('walks the pages with nextPage, to null after the last', async () => {
    const { fetcher, cursors } = pagesOf();
    const first = await paginate(fetcher);
    const second = await first.nextPage();
    const third = await second?.nextPage();
    expect(second?.items).toEqual([4, 5, 6]);
    expect(third?.items).toEqual([7]);
    expect(third?.hasMore).toBe(false);
    expect(third?.nextCursor).toBeNull();
    expect(await third?.nextPage()).toBeNull();
    expect(cursors).toEqual([undefined, 'c3', 'c6']);
  });

  it('iterates every item of every page, and stops at nextCursor null', async () => {
    const { fetcher, cursors } = pagesOf();
    expect(await collect(paginate(fetcher))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(cursors).toEqual([undefined, 'c3', 'c6']);
  });

  it('fetches a page only when the loop reaches it', async () => {
    const { fetcher, cursors } = pagesOf();
    const seen: Array<[number, number]> = [];
    for await (const item of paginate(fetcher)) {
      seen.push([item, cursors.length]);
      if (item === 4) break;
    }
    // Items 1-3 with one page fetched, item 4 with two; the third page never.
    expect(seen).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 2],
    ]);
    expect(cursors).toEqual([undefined, 'c3']);
  });

  it('fetches the first page once when awaited and then iterated', async () => {
    const { fetcher, cursors } = pagesOf();
    const list = paginate(fetcher);
    const [a, b] = await Promise.all([list, list]);
    expect(a).toBe(b);
    expect(await collect(list)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(cursors).toEqual([undefined, 'c3', 'c6']);
  });

  it('iterates from a page on, and page by page', async () => {
    const { fetcher } = pagesOf();
    const second = await (await paginate(fetcher)).nextPage();
    expect(await collect(second as Page<number>)).toEqual([4, 5, 6, 7]);
    const sizes: number[] = [];
    for await (const page of paginate(fetcher).pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('starts at a given cursor', async () => {
    const { fetcher, cursors } = pagesOf();
    expect(await collect(paginate(fetcher, { cursor: 'c3' }))).toEqual([4, 5, 6, 7]);
    expect(cursors).toEqual(['c3', 'c6']);
  });

  it('handles an empty list', async () => {
    const list = paginate(async () => ({ items: [], nextCursor: null }));
    expect(await collect(list)).toEqual([]);
    expect((await list).hasMore).toBe(false);
  });

  it('goes on over an empty page that has a next cursor', async () => {
    const answers: Record<string, PageData<string>> = {
      first: { items: [], nextCursor: 'b' },
      b: { items: ['x'], nextCursor: null },
    };
    expect(await collect(paginate(async (cursor) => answers[cursor ?? 'first']))).toEqual(['x']);
  });

  it('passes a failed fetch on, to await, catch and the loop', async () => {
    const failing = () => paginate<number>(async () => Promise.reject(new CommerceError('down')));
    await expect(failing()).rejects.toThrow('down');
    await expect(failing().catch((error: unknown) => (error as Error).message)).resolves.toBe('down');
    await expect(collect(failing())).rejects.toThrow('down');
    let settled = false;
    await failing()
      .finally(() => {
        settled = true;
      })
      .catch(() => undefined);
    expect(settled).toBe(true);
  });

  it('stops rather than loop on a server that answers the cursor it was given', async () => {
    const list = paginate(async (cursor) => ({ items: [1], nextCursor: cursor ?? 'same' }));
    await expect(collect(list)).rejects.toThrow(CommerceError);
  });
});

describe('paginateList over the transport', () => {
  type Trade = { id: string };
  const ids = Array.from({ length: 5 }, (_, i) => `trd_${i + 1}`);
  const urls: string[] = [];
  let server: Server;
  let transport: Transport;

  beforeAll(async () => {
    // GET /api/v1/secure-trades: pages of `limit` (default 2); /api/v1/tradegraph/pricing answers `cards`.
    server = createServer((req, res) => {
      urls.push(req.url ?? '');
      const url = new URL(req.url ?? '', 'http://x');
      const limit = Number(url.searchParams.get('limit') ?? 2);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const slice = ids.slice(start, start + limit).map((id) => ({ id }));
      const nextCursor = start + limit < ids.length ? String(start + limit) : null;
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/api/v1/secure-trades') res.end(JSON.stringify({ data: slice, nextCursor }));
      else if (url.pathname === '/api/v1/tradegraph/pricing') res.end(JSON.stringify({ windowDays: 30, cards: slice, nextCursor }));
      else res.writeHead(404).end(JSON.stringify({ code: 'NOT_FOUND', message: 'No route' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    transport = new Transport({ apiKey: 'sk_test', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxRetries: 0 });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    urls.length = 0;
  });

  it('reads { data, nextCursor } pages and sends each cursor with the query', async () => {
    const list = paginateList<Trade>(transport, { path: '/secure-trades', query: { status: 'paid', limit: 2 } });
    expect((await collect(list)).map((trade) => trade.id)).toEqual(ids);
    expect(urls).toEqual([
      '/api/v1/secure-trades?status=paid&limit=2',
      '/api/v1/secure-trades?status=paid&limit=2&cursor=2',
      '/api/v1/secure-trades?status=paid&limit=2&cursor=4',
    ]);
  });

  it('awaits to the first page, with the answer as raw', async () => {
    const page = await paginateList<Trade>(transport, { path: '/secure-trades', query: { limit: 3 } });
    expect(page.items).toEqual([{ id: 'trd_1' }, { id: 'trd_2' }, { id: 'trd_3' }]);
    expect(page.raw).toEqual({ data: page.items, nextCursor: '3' });
    expect(urls).toHaveLength(1);
  });

  it('starts at the query\'s cursor', async () => {
    const list = paginateList<Trade>(transport, { path: '/secure-trades', query: { cursor: '3' } });
    expect((await collect(list)).map((trade) => trade.id)).toEqual(['trd_4', 'trd_5']);
  });

  it('reads another shape with an extract function', async () => {
    type Pricing = { windowDays: number; cards: Trade[]; nextCursor: string | null };
    const list = paginateList<Trade, Pricing>(transport, {
      path: '/tradegraph/pricing',
      query: { windowDays: 30 },
      extract: (answer) => ({ items: answer.cards, nextCursor: answer.nextCursor }),
    });
    expect((await collect(list)).map((card) => card.id)).toEqual(ids);
    expect((await list).raw?.windowDays).toBe(30);
    expect(urls[0]).toBe('/api/v1/tradegraph/pricing?windowDays=30');
  });

  it('says so when the answer is not { data, nextCursor } and no extract was given', async () => {
    await expect(paginateList(transport, { path: '/tradegraph/pricing' })).rejects.toThrow(/extract/);
  });

  it('throws the transport\'s errors', async () => {
    await expect(collect(paginateList(transport, { path: '/nowhere' }))).rejects.toBeInstanceOf(NotFoundError);
  });
});
