// The supply view's documents: each inventory item as priced and available (units not reserved or
// sold), indexed by its card, condition and price — so the listings at one price are found directly
// — and by status and listing day. Written by the tradegraph projection (supply.evolve.ts).
import { type CollectionSpec, type Doc, type RecordedEvent, streamEntityId } from '@app/platform';

import { type Listing, pointsKeyOf } from '../pricing/pricing.views';
import { demandCardId } from '../summary/summary.views';

export const TG_ITEMS: CollectionSpec = {
  name: 'tg_items',
  indexes: [
    { name: 'by_points_price', fields: [['workspaceId', 1], ['pointsKey', 1], ['priceMinor', 1]] },
    { name: 'by_workspace_status_listed', fields: [['workspaceId', 1], ['status', 1], ['listedAt', 1]] },
  ],
};

export interface ItemDoc extends Doc, Listing {
  workspaceId: string;
  revision: number;
  pointsKey: string;
  cardId: string;
  priceMinor: number;
  quantity: number;
  reserved: number;
  sold: number;
  status: string;
  /** Units available now (see availableUnits). */
  available: number;
  listedAt: string;
}

/** Units an item offers now: while available, its quantity less what trades and holds reserved or sold. */
export const availableUnits = (item: Pick<ItemDoc, 'status' | 'quantity' | 'reserved' | 'sold'>) =>
  item.status === 'available' ? Math.max(0, item.quantity - item.reserved - item.sold) : 0;

type Listed = { cardName: string; setName: string; condition: string; currency: string; match: { cardKey: string; setKey: string } };

/** What an item's and a request's documents share: the card as listed, and where it is counted. */
export function placed(event: RecordedEvent, d: Listed) {
  const workspaceId = event.metadata.workspaceId;
  const listing: Listing = { cardKey: d.match.cardKey, setKey: d.match.setKey, cardName: d.cardName, setName: d.setName, condition: d.condition, currency: d.currency };
  return { ...listing, id: streamEntityId(event.streamId), workspaceId, revision: event.revision, pointsKey: pointsKeyOf(listing), cardId: demandCardId(workspaceId, listing) };
}
