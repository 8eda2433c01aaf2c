// What the trading read routes share: a buyer named through its buyer request (opened by demand's
// reader), and a page of one workspace's documents, newest first, with those buyers.
import type { BuyerIdentity, BuyerRequestReader } from '@app/demand';
import type { CollectionSpec, Doc, Filter, Page, ReadStore } from '@app/platform';

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
export async function pageWithBuyers<D extends Doc & { buyerRequestId: string | null }, R>(
  reads: ReadStore,
  requests: BuyerRequestReader,
  collection: CollectionSpec,
  query: { workspaceId: string; filters: Record<string, Filter[string] | undefined>; limit: number; cursor?: string },
  answer: (doc: D, buyer: BuyerIdentity | null) => R,
): Promise<Page<R>> {
  const filter: Record<string, Filter[string]> = { workspaceId: query.workspaceId };
  for (const [field, value] of Object.entries(query.filters)) if (value !== undefined) filter[field] = value;
  const page = await reads.collection<D>(collection).find(filter, { sort: [['createdAt', -1]], limit: query.limit, after: query.cursor });
  const buyers = await buyersOf(requests, query.workspaceId, page.items.map((d) => d.buyerRequestId));
  return { ...page, items: page.items.map((doc) => answer(doc, buyers.get(doc.buyerRequestId ?? '') ?? null)) };
}
