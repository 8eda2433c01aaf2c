// Cursor pagination. A list route answers a page and the cursor of the next (`{ data, nextCursor }`,
// or its own list field and `nextCursor` on the tradegraph routes). `PagePromise` is what a list
// method returns: awaited, it is the first page; iterated with `for await`, it is every item of
// every page, each page fetched only when the previous one is used up.
import { CommerceError } from './errors';
import type { RequestOptions, Transport } from './transport';

/** The API's list answer (libs/platform/src/http/pagination.ts). */
export interface ListResponse<T> {
  data: T[];
  nextCursor: string | null;
}

/** One page as a fetcher returns it: its items, the next cursor (null on the last page), and the answer it came in. */
export interface PageData<T, Raw = unknown> {
  items: T[];
  nextCursor: string | null;
  /** The whole answer, for routes that say more than the list (the tradegraph's window, totals). */
  raw?: Raw;
}

/** Fetches the page at `cursor` (undefined: the first page). */
export type PageFetcher<T, Raw = unknown> = (cursor: string | undefined) => Promise<PageData<T, Raw>>;

export class Page<T, Raw = unknown> implements AsyncIterable<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
  readonly raw: Raw | undefined;

  constructor(
    page: PageData<T, Raw>,
    private readonly fetcher: PageFetcher<T, Raw>,
  ) {
    this.items = page.items;
    this.nextCursor = page.nextCursor;
    this.raw = page.raw;
  }

  /** The items, under the API's name for them. */
  get data(): T[] {
    return this.items;
  }

  /** Whether a page follows this one. */
  get hasMore(): boolean {
    return this.nextCursor !== null;
  }

  /** The next page, or null after the last. */
  async nextPage(): Promise<Page<T, Raw> | null> {
    return this.nextCursor === null ? null : fetchPage(this.fetcher, this.nextCursor);
  }

  /** This page and each one after it, fetched as the loop asks for them. */
  async *pages(): AsyncGenerator<Page<T, Raw>, void, undefined> {
    for (let page: Page<T, Raw> | null = this; page !== null; page = await page.nextPage()) yield page;
  }

  /** Every item of this page and of the pages after it. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }
}

/**
 * The first page, awaitable, and every item, async-iterable:
 * `const page = await list()` or `for await (const item of list())`. Nothing is fetched until one
 * of the two is used; the first page is fetched once for both.
 */
export class PagePromise<T, Raw = unknown> implements PromiseLike<Page<T, Raw>>, AsyncIterable<T> {
  private first: Promise<Page<T, Raw>> | undefined;

  constructor(
    private readonly fetcher: PageFetcher<T, Raw>,
    private readonly startCursor?: string,
  ) {}

  then<A = Page<T, Raw>, B = never>(
    onfulfilled?: ((page: Page<T, Raw>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T, Raw> | B> {
    return this.firstPage().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T, Raw>> {
    return this.firstPage().finally(onfinally);
  }

  /** Every page, the first included, fetched as the loop asks for them. */
  async *pages(): AsyncGenerator<Page<T, Raw>, void, undefined> {
    yield* (await this.firstPage()).pages();
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  private firstPage(): Promise<Page<T, Raw>> {
    this.first ??= fetchPage(this.fetcher, this.startCursor);
    return this.first;
  }
}

/** A `PagePromise` over any fetcher: `paginate((cursor) => fetchSomePage(cursor))`. */
export function paginate<T, Raw = unknown>(fetcher: PageFetcher<T, Raw>, options: { cursor?: string } = {}): PagePromise<T, Raw> {
  return new PagePromise(fetcher, options.cursor);
}

/** A GET of a list route, with everything `Transport.request` takes but the method and body. */
export type ListRequest = Omit<RequestOptions, 'method' | 'body' | 'rawBody' | 'idempotencyKey' | 'responseType'>;

/**
 * A `PagePromise` over a list route: GET `path` with `query` and each page's `cursor`. The answer is
 * read as `{ data, nextCursor }`, or with `extract` for a route whose list has another name:
 * `paginateList(transport, { path: '/tradegraph/pricing', query, extract: (r) => ({ items: r.cards, nextCursor: r.nextCursor }) })`.
 * A `cursor` in the query is where the listing starts.
 */
export function paginateList<T>(transport: Pick<Transport, 'request'>, request: ListRequest): PagePromise<T, ListResponse<T>>;
export function paginateList<T, Raw>(
  transport: Pick<Transport, 'request'>,
  request: ListRequest & { extract: (raw: Raw) => { items: T[]; nextCursor: string | null } },
): PagePromise<T, Raw>;
export function paginateList<T, Raw>(
  transport: Pick<Transport, 'request'>,
  { extract, ...request }: ListRequest & { extract?: (raw: Raw) => { items: T[]; nextCursor: string | null } },
): PagePromise<T, Raw> {
  const read = extract ?? ((raw: Raw) => listResponseOf<T>(raw, request.path));
  const start = request.query?.cursor;
  const fetcher: PageFetcher<T, Raw> = async (cursor) => {
    const { data } = await transport.request<Raw>({ ...request, method: 'GET', query: { ...request.query, cursor } });
    const { items, nextCursor } = read(data);
    return { items, nextCursor, raw: data };
  };
  return new PagePromise(fetcher, typeof start === 'string' ? start : undefined);
}

async function fetchPage<T, Raw>(fetcher: PageFetcher<T, Raw>, cursor: string | undefined): Promise<Page<T, Raw>> {
  const page = await fetcher(cursor);
  // A server answering the cursor it was given would make `for await` loop forever.
  if (cursor !== undefined && page.nextCursor === cursor) {
    throw new CommerceError(`The list answered the cursor it was asked for (${cursor}) as the next one: stopping rather than looping`);
  }
  return new Page(page, fetcher);
}

function listResponseOf<T>(raw: unknown, path: string): { items: T[]; nextCursor: string | null } {
  const body = raw as Partial<ListResponse<T>> | null | undefined;
  if (!Array.isArray(body?.data) || !(typeof body.nextCursor === 'string' || body.nextCursor === null)) {
    throw new CommerceError(`GET ${path} did not answer { data, nextCursor }: pass paginateList an extract function for its shape`);
  }
  return { items: body.data, nextCursor: body.nextCursor };
}
