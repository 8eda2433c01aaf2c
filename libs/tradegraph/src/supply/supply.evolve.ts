// The tradegraph projection's step for an inventory event: the item's document (tg_items) as priced
// and available, then the item moved in the aggregates — out as it was, in as it is — the price
// counts' asks (pricing), and the card's and the workspace's stock, asks and units listed (summary).
// Idempotent on replay: the item's document remembers the revision it reflects, and the aggregates
// change only through its transitions.
import { type RecordedEvent, streamEntityId, view, type ViewStep } from '@app/platform';
import { parseInventoryEvent } from '@app/supply';

import { addPrice } from '../pricing/price-counts';
import { changePoints, type PointsCounts } from '../pricing/pricing.views';
import { addStock, addTo, changeDemand, type DemandDoc } from '../summary/summary.views';
import { availableUnits, type ItemDoc, placed, TG_ITEMS } from './supply.views';

export function* evolveItem(event: RecordedEvent): ViewStep {
  const id = streamEntityId(event.streamId);
  const before = yield* view.get<ItemDoc>(TG_ITEMS, id);
  if (before && before.revision >= event.revision) return;
  const e = parseInventoryEvent(event);
  let after: ItemDoc | null = before ? { ...before, revision: event.revision } : null;
  switch (e.type) {
    case 'inventory.created':
    case 'inventory.updated': {
      const d = e.data;
      after = {
        ...placed(event, d),
        priceMinor: d.priceMinor,
        quantity: d.quantity,
        reserved: before?.reserved ?? 0,
        sold: before?.sold ?? 0,
        status: d.status,
        available: 0,
        listedAt: e.type === 'inventory.created' ? e.data.createdAt : (before?.listedAt ?? e.data.updatedAt),
      };
      break;
    }
    case 'inventory.deleted':
      after = null;
      break;
    case 'inventory.reserved':
      if (after) after = { ...after, reserved: after.reserved + e.data.quantity, status: e.data.status };
      break;
    case 'inventory.released':
      if (after) after = { ...after, reserved: Math.max(0, after.reserved - e.data.quantity), status: e.data.status };
      break;
    case 'inventory.sold':
      if (after) after = { ...after, reserved: Math.max(0, after.reserved - e.data.quantity), sold: after.sold + e.data.quantity, status: e.data.status };
      break;
    default:
      return;
  }
  if (after) after.available = availableUnits(after);
  if (after) yield* view.put(TG_ITEMS, after);
  else if (before) yield* view.delete(TG_ITEMS, id);
  yield* moveListing(before, after, e.type === 'inventory.created' ? { at: e.data.createdAt, units: e.data.quantity } : null);
}

/**
 * Takes the item out of the aggregates as it was and puts it in as it is — each document read and
 * written once — and, for a new item, counts the units listed that day.
 */
function* moveListing(before: ItemDoc | null, after: ItemDoc | null, listed: { at: string; units: number } | null): ViewStep {
  const was = before?.available ?? 0;
  const is = after?.available ?? 0;
  const unchanged = was === is && (was === 0 || (before && after && before.priceMinor === after.priceMinor && before.pointsKey === after.pointsKey && before.listedAt === after.listedAt));
  if (unchanged && !listed) return;
  const take = (item: ItemDoc, sign: 1 | -1, units: number) => ({
    points: (p: PointsCounts) => addPrice(p.asks, item.priceMinor, sign),
    card: (d: DemandDoc) => {
      addStock(d, item.listedAt, sign * units, sign * units * item.priceMinor);
      addPrice(d.asks, item.priceMinor, sign);
    },
    workspace: (d: DemandDoc) => addStock(d, item.listedAt, sign * units, sign * units * item.priceMinor),
  });
  const out = before && was > 0 && !unchanged ? take(before, -1, was) : null;
  const into = after && is > 0 && !unchanged ? take(after, 1, is) : null;
  const count = (d: DemandDoc) => {
    if (listed) addTo(d.listed, listed.at.slice(0, 10), listed.units);
  };
  const sameCard = before && after && before.cardId === after.cardId;
  const samePoints = before && after && before.pointsKey === after.pointsKey;
  if (before && out && !samePoints) yield* changePoints(before.workspaceId, before.pointsKey, before, out.points);
  if (before && out && !sameCard) yield* changeDemand(before.workspaceId, 'card', before, out.card);
  const item = (after ?? before) as ItemDoc;
  if (after && (into || (out && samePoints))) {
    yield* changePoints(after.workspaceId, after.pointsKey, after, (p) => {
      if (out && samePoints) out.points(p);
      into?.points(p);
    });
  }
  if (after && (into || (out && sameCard) || listed)) {
    yield* changeDemand(after.workspaceId, 'card', after, (d) => {
      if (out && sameCard) out.card(d);
      into?.card(d);
      count(d);
    });
  }
  if (out || into || listed) {
    yield* changeDemand(item.workspaceId, 'workspace', item, (d) => {
      out?.workspace(d);
      into?.workspace(d);
      count(d);
    });
  }
}
