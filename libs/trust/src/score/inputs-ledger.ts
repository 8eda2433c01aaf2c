// A seller's inputs as the read model holds them, for the readers that need them (the issuer, the
// routes, the audit): a ledger kept per reader as outcome rows reach the read model, so that a
// seller's rows are read whole once per process, then only the rows since. It is a reader's cache
// of committed documents, never the projection's: the projection stays pure (seller-trust.projection.ts).
import type { ReadStore } from '@app/platform';

import { TRADE_OUTCOMES, type TradeOutcomeDoc } from '../seller/seller-trust.projection';
import { type InputsView, SellerInputs } from './seller-inputs';

const PAGE = 1000;

/** Every outcome row of a seller's (with an outcome after position `from`, at or before `upTo`), in outcome order. */
export async function outcomeRowsOf(store: ReadStore, workspaceId: string, upTo = Number.MAX_SAFE_INTEGER, from = -1): Promise<TradeOutcomeDoc[]> {
  const rows: TradeOutcomeDoc[] = [];
  let after: string | undefined;
  do {
    const page = await store
      .collection<TradeOutcomeDoc>(TRADE_OUTCOMES)
      .find({ workspaceId, outcomePosition: { $gt: from, $lte: upTo } }, { sort: [['outcomePosition', 1]], limit: PAGE, after });
    rows.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after);
  return rows;
}

/** Rows kept by a ledger, all sellers together, before the least recently used sellers are dropped (≈ 0.3 KB a row). */
export const LEDGER_ROWS = 100_000;

/**
 * Sellers' inputs kept in memory as their outcome rows reach the read model (SellerInputs), so an
 * issuance reads only the rows since the last one: each read first checks that the last row it
 * took is still in the read model as it was (a rebuild clears it: the seller is then read again
 * from the start), then takes the rows past it. Rows are final once they have an outcome and come
 * in log order, so what was taken stays true. One ledger per reader (the issuer's, SellerTrustReadModel's), each
 * reading committed rows.
 */
export class TrustInputsLedger {
  /** By seller, least recently used first. */
  private readonly sellers = new Map<string, SellerInputs>();
  /** Rows kept, all sellers together. */
  private rows = 0;

  constructor(
    private readonly refOf: (tradeId: string) => string,
    private readonly maxRows = LEDGER_ROWS,
  ) {}

  /** The seller's inputs as the read model holds them now. */
  async current(store: ReadStore, workspaceId: string): Promise<InputsView> {
    let inputs = this.sellers.get(workspaceId);
    if (inputs) {
      this.sellers.delete(workspaceId);
      this.rows -= inputs.size;
    }
    if (inputs?.lastId != null) {
      const last = await store.collection<TradeOutcomeDoc>(TRADE_OUTCOMES).get(inputs.lastId);
      if (last?.outcomePosition !== inputs.upTo) inputs = undefined; // the read model was cleared (a rebuild)
    }
    inputs ??= new SellerInputs(workspaceId, this.refOf);
    inputs.add(await outcomeRowsOf(store, workspaceId, Number.MAX_SAFE_INTEGER, inputs.upTo));
    const view = inputs.view();
    // Kept as the most recently used; the least recently used go beyond maxRows. (A call for the
    // same seller that ran meanwhile found none and read it all: the later one is kept.)
    const meanwhile = this.sellers.get(workspaceId);
    if (meanwhile) {
      this.sellers.delete(workspaceId);
      this.rows -= meanwhile.size;
    }
    for (const [id, other] of this.sellers) {
      if (this.rows + inputs.size <= this.maxRows) break;
      this.sellers.delete(id);
      this.rows -= other.size;
    }
    if (this.rows + inputs.size <= this.maxRows) {
      this.sellers.set(workspaceId, inputs);
      this.rows += inputs.size;
    }
    return view;
  }
}
