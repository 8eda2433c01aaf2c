// What a demo plan is: the vocabulary its data is made of (conditions, the trade path and the
// stages its trades are taken to, the answers to offers) and its shape — what the plan
// (demo-plan.ts) makes, its timeline (demo-timeline.ts) orders and the run (demo-seed.ts) writes.

export const CONDITIONS = { NM: 1, LP: 0.82, MP: 0.64 } as const;
export type ConditionCode = keyof typeof CONDITIONS;
export const TRADE_PATH = ['paid', 'shipped', 'delivered', 'completed', 'settled'] as const;
export type TradeMoveTo = (typeof TRADE_PATH)[number];
export type TradeStage = 'initiated' | TradeMoveTo;
/** The stage each accepted offer's trade is taken to, in turn. */
export const TRADE_STAGES: readonly TradeStage[] = ['settled', 'completed', 'settled', 'delivered', 'shipped', 'settled', 'paid', 'completed', 'initiated', 'settled', 'delivered', 'settled'];
/** The answers to each set's offers, in turn. */
export const OFFER_ANSWERS = ['accept', 'accept', 'accept', 'reject', 'pending'] as const;

export interface PlannedCard {
  cardId: string;
  name: string;
  setId: string;
  setName: string;
  number: string;
  rarity: string;
  baseMinor: number;
}

export interface PlannedItem {
  sku: string;
  card: PlannedCard;
  condition: ConditionCode;
  priceMinor: number;
  quantity: number;
  /** stock: may be offered on; market: a listing of an outlier's card; outlier: planted. */
  role: 'stock' | 'market' | 'outlier';
  outlier?: { direction: 'above' | 'below'; factor: number };
  /** When it is listed, in ms before the run (so are all the plan's `…Ago`). */
  listedAgo: number;
}

export interface PlannedRequest {
  card: PlannedCard;
  condition: ConditionCode;
  maxPriceMinor: number;
  buyer: string;
  /** wanted: on a stocked card near its price; lowball: under every listing; unstocked: never stocked; archived: never stocked, archived. */
  kind: 'wanted' | 'lowball' | 'unstocked' | 'archived';
  createdAgo: number;
  /** For an archived one: when. */
  archivedAgo: number | null;
}

export interface PlannedOffer {
  item: number;
  request: number | null;
  amountMinor: number;
  answer: (typeof OFFER_ANSWERS)[number];
  /** For an accepted offer: the stage its trade is taken to. */
  stage: TradeStage | null;
  madeAgo: number;
  /** null: made with the default expiry (48 h) and left pending; else answered, made valid for 60 days. */
  answeredAgo: number | null;
  /** The accepted offer's trade moves, in order. */
  moves: Array<{ to: TradeMoveTo; ago: number }>;
}

export interface DemoPlan {
  scale: number;
  /** The dispute window the plan was made for, and the span before the run its deliveries fall in. */
  disputeWindowMs: number;
  deliverySpanMs: number;
  sets: Array<{ setId: string; name: string }>;
  items: PlannedItem[];
  requests: PlannedRequest[];
  offers: PlannedOffer[];
}
