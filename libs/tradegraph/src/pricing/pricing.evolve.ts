// The tradegraph projection's step for a trade event: the trade's document (tg_trades), its card
// taken from its item at initiation; on completion, its sale added to the card's price counts
// (pricing) and its units to the card's and the workspace's units sold (summary). Idempotent on
// replay: the trade's document remembers the revision it reflects and whether it completed.
import { type RecordedEvent, streamEntityId, view, type ViewStep } from '@app/platform';
import { parseTradeEvent } from '@app/trading';

import { countUnits } from '../summary/summary.views';
import { type ItemDoc, TG_ITEMS } from '../supply/supply.views';
import { changePoints, SALES_KEPT, TG_TRADES, type TradeDoc } from './pricing.views';

export function* evolveTrade(event: RecordedEvent): ViewStep {
  const id = streamEntityId(event.streamId);
  const before = yield* view.get<TradeDoc>(TG_TRADES, id);
  if (before && before.revision >= event.revision) return;
  const e = parseTradeEvent(event);
  if (e.type === 'trade.initiated') {
    const d = e.data;
    const item = yield* view.get<ItemDoc>(TG_ITEMS, d.inventoryItemId);
    yield* view.put<TradeDoc>(TG_TRADES, {
      id,
      workspaceId: event.metadata.workspaceId,
      revision: event.revision,
      pointsKey: item?.pointsKey ?? null,
      itemId: d.inventoryItemId,
      unitPriceMinor: Math.round(d.amountMinor / Math.max(1, d.quantity)),
      quantity: d.quantity,
      completedAt: null,
    });
    return;
  }
  if (!before) return;
  if (e.type !== 'trade.status_changed' || e.data.to !== 'completed' || before.completedAt !== null) {
    yield* view.put<TradeDoc>(TG_TRADES, { ...before, revision: event.revision });
    return;
  }
  const completed = { ...before, revision: event.revision, completedAt: e.data.at };
  yield* view.put(TG_TRADES, completed);
  if (completed.pointsKey === null) return;
  const item = yield* view.get<ItemDoc>(TG_ITEMS, completed.itemId);
  if (item) yield* countUnits(item, 'sold', e.data.at, completed.quantity);
  yield* changePoints(completed.workspaceId, completed.pointsKey, item, (p) => {
    p.sales.push({ tradeId: id, priceMinor: completed.unitPriceMinor, units: completed.quantity, at: e.data.at });
    if (p.sales.length > SALES_KEPT) p.sales.splice(0, p.sales.length - SALES_KEPT);
  });
}
