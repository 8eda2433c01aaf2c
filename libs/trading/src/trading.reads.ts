// What the trading read routes share: a buyer named through its buyer request (opened by demand's
// reader) or sealed on the document itself (a live win), and a page of one workspace's documents,
// newest first, with those buyers.
import type { BuyerIdentity, BuyerRequestReader } from '@app/demand';
import type { BuyerSeal, CollectionSpec, Doc, Filter, Page, ReadStore } from '@app/platform';

/** The AAD of a buyer sealed on a hold or a trade (`hld_…`, `trd_…`). */
export const tradingBuyerContext = (id: string): string => `trading:${id}`;

/** A document that names its buyer: through its buyer request, or sealed on itself. */
export type WithBuyer = Doc & { buyerRequestId: string | null; buyerSealed?: string | null };

/** The documents' buyers, by document id: each one's own (opened) or its buyer request's. */
export async function buyersOfDocs(reader: BuyerRequestReader, seal: BuyerSeal, workspaceId: string, docs: readonly WithBuyer[]): Promise<Map<string, BuyerIdentity | null>> {
  const viaRequests = await buyersOf(reader, workspaceId, docs.filter((d) => !d.buyerSealed).map((d) => d.buyerRequestId));
  return new Map(docs.map((d) => [d.id, d.buyerSealed ? seal.open(tradingBuyerContext(d.id), d.buyerSealed) : (viaRequests.get(d.buyerRequestId ?? '') ?? null)]));
}

/**
 * The indexes of a list read newest first within a workspace: the bare list, and one per field it
 * filters on by equality (`by_ws_status_created` …), each ending in the paging order.
 */
export function newestFirstIndexes(filters: Record<string, string>): CollectionSpec['indexes'] {
  return [
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    ...Object.entries(filters).map(([short, field]) => ({ name: `by_ws_${short}_created`, fields: [['workspaceId', 1], [field, 1], ['createdAt', -1], ['id', -1]] as const })),
  ] as CollectionSpec['indexes'];
}

/** The buyers of these buyer requests (opened), by request id. */
export async function buyersOf(reader: BuyerRequestReader, workspaceId: string, ids: ReadonlyArray<string | null>): Promise<Map<string, BuyerIdentity | null>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const found = await reader.getMany(wanted);
  return new Map(found.filter((r) => r.workspaceId === workspaceId).map((r) => [r.id, r.buyer]));
}

/** A page of the workspace's documents matching `filters` (unset ones ignored), newest first, each answered with its buyer. */
export async function pageWithBuyers<D extends WithBuyer, R>(
  reads: ReadStore,
  requests: BuyerRequestReader,
  seal: BuyerSeal,
  collection: CollectionSpec,
  query: { workspaceId: string; filters: Record<string, Filter[string] | undefined>; limit: number; cursor?: string },
  answer: (doc: D, buyer: BuyerIdentity | null) => R,
): Promise<Page<R>> {
  const filter: Record<string, Filter[string]> = { workspaceId: query.workspaceId };
  for (const [field, value] of Object.entries(query.filters)) if (value !== undefined) filter[field] = value;
  const page = await reads.collection<D>(collection).find(filter, { sort: [['createdAt', -1]], limit: query.limit, after: query.cursor });
  const buyers = await buyersOfDocs(requests, seal, query.workspaceId, page.items);
  return { ...page, items: page.items.map((doc) => answer(doc, buyers.get(doc.id) ?? null)) };
}
