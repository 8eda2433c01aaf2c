// The demo's plan: pure, from the catalogue, the scale and the dispute window — the same scale (and
// dispute window) always plans the same sets, cards, conditions, prices, quantities, requests,
// offers, trade stages and times. Its times are offsets before the run's start, in ms (`…Ago`):
// the run (demo-seed.ts) turns them into the simulated clock's moments.
//
// What it writes (scale 1; --scale n multiplies every count: n × 4 sets):
// - stock: 10 rare cards a set, each in Near Mint and sometimes LP / MP, priced around the card's
//   base price (× 1, 0.82, 0.64 by condition, ± 10 %), 1 to 3 units;
// - per set one "market" card with three Near Mint listings and three buyers, and one planted
//   outlier on it: listed at 5 × the card's base price (sets 1, 3, …: tradegraph pricing flags it
//   above / high) or 0.3 × (sets 2, 4, …: below / high). No offer touches these cards;
// - buyer requests: on stocked cards (max price around the price), one far under every listing, and
//   on cards never stocked (missed demand), one of them archived without a match;
// - offers from buyers on stocked items: accepted (each opens a trade), rejected, left pending;
// - the trades moved along paid → shipped → delivered → completed → settled, each to its own stage.
//
// When: a simulated clock. The domain reads time only from the CLOCK provider, so the seed writes
// through a context of its own (the CLI's composition, CliModule) whose CLOCK is a SimulatedClock
// it moves itself: it starts 42 days before the run, stands still during a write, and moves
// forward to each planned moment in turn — never backwards, never past the real now. So:
// - the sets are stocked in four waves (from about 41, 38, 27 and 8 days ago), each set's demand
//   comes after its stock, spread up to the last days — every match is then found by the request's
//   own check at its creation, none later by reverse matching at a server's real time. The market
//   cards of the first two waves have one buyer from the 30 days before the current 30 and two
//   from these (tradegraph's summary: a velocity, trending up); older requests for cards never
//   stocked are missed demand (open and unmatched for over 14 days), and the archived ones were
//   archived within the last 30 days;
// - offers are made and rejected over the weeks; the trades that go on are opened, paid and
//   shipped in the last week or so, and delivered, completed and settled within the last dispute
//   window (below), on different days;
// - what is still pending is made within the final day: the pending offers (they lapse 48 h after,
//   the default), the trades left initiated, paid or shipped, and those left delivered.
//
// Deadlines: trading's durable timers fire on a server's real clock — an offer lapses at its
// `expiresAt`, a delivered trade completes once TRADE_DISPUTE_WINDOW_SECONDS (3 days by default)
// have passed since its delivery. A server may be running on the same DATA_DIR while the seed
// writes, so no event the seed writes starts a timer already due at the real now, not even for
// the moment between two of its writes (the server would fire it in between, and the seed's next
// write would fail or follow a timer's move):
// - an offer the seed answers is made with its own `expiresAt`, 60 days after it (a client may set
//   one): with the default 48 h, an offer dated weeks back would lapse before its answer;
// - a trade is delivered no earlier than the dispute window (this process's setting, less an hour,
//   at most 3 weeks) before the run: with the default window, completions and settlements fall in
//   the last three days (a server configured with a shorter window than the CLI's, or a window
//   under two hours — the hour to spare is then half of it — may still complete one first).
//   Nothing is left due when the seed ends either: the delivered trades' windows and the pending
//   offers' 48 h run from the final day.
import { normalizeCardName, normalizeSetName } from '@app/catalog';

import { basePriceMinor, between, type Catalogue, type CatalogueCard, type CatalogueSetRow, hash32, shuffled } from './demo-catalogue';
import { DAY, FINAL_DAY_FROM_MS, FINAL_DAY_TO_MS, HOUR, MINUTE } from './demo-clock';
import {
  CONDITIONS,
  type ConditionCode,
  type DemoPlan,
  OFFER_ANSWERS,
  type PlannedCard,
  type PlannedItem,
  type PlannedOffer,
  type PlannedRequest,
  TRADE_PATH,
  TRADE_STAGES,
  type TradeMoveTo,
} from './demo-plan-types';
import { checkPlan } from './demo-timeline';
import { mulberry32 } from './random';

/** The PRNG's seed (issue 16). Fixed: the same scale always plans the same data. */
export const DEMO_SEED = 16;
export const MAX_SCALE = 25;
export const SETS_PER_SCALE = 4;
const STOCKED_PER_SET = 10;
const UNSTOCKED_PER_SET = 4;
export const SKU_PREFIX = 'DEMO-';
const DEFAULT_DISPUTE_WINDOW_MS = 3 * DAY;
/** The most the delivered-to-settled part of the history spans (a longer dispute window allows it). */
const MAX_DELIVERY_SPAN_MS = 21 * DAY;

/** Buyers of each set's market card: the first comes a day after its stock, the others later. */
const MARKET_BUYERS = 3;
/**
 * The four waves a set is stocked in, by its place in each group of four: days before the run of
 * its first and its last listing. A set's demand starts half a day after its last listing.
 */
const STOCK_WAVES: ReadonlyArray<readonly [number, number]> = [
  [41.5, 39],
  [38, 35],
  [27, 24],
  [8, 5],
];

function plannedCard(card: CatalogueCard, setName: string): PlannedCard {
  return { cardId: card.cardId, name: card.name, setId: card.setId, setName, number: card.number, rarity: card.rarity, baseMinor: basePriceMinor(card) };
}

/**
 * The sets a demo may use, in a fixed shuffled order: their name reads back as exactly that set,
 * and they hold enough rare Pokémon whose names the catalogue knows (distinct within the set).
 */
function eligibleSets(catalogue: Catalogue): Array<{ set: CatalogueSetRow; cards: CatalogueCard[] }> {
  const bySet = new Map<string, Map<string, CatalogueCard>>();
  for (const card of catalogue.cards) {
    if (card.supertype !== 'Pokémon' || !card.rarity.includes('Rare')) continue;
    const name = normalizeCardName(card.name);
    if (!name.recognized || name.warnings.length > 0 || name.value.name !== card.name) continue;
    const cards = bySet.get(card.setId) ?? new Map<string, CatalogueCard>();
    if (!cards.has(name.value.key)) cards.set(name.value.key, card);
    bySet.set(card.setId, cards);
  }
  const out: Array<{ set: CatalogueSetRow; cards: CatalogueCard[] }> = [];
  for (const set of catalogue.sets) {
    const cards = [...(bySet.get(set.setId)?.values() ?? [])];
    if (cards.length < STOCKED_PER_SET + UNSTOCKED_PER_SET) continue;
    const normalized = normalizeSetName(set.name);
    if (normalized.value.setId !== set.setId || normalized.warnings.length > 0 || normalized.value.name !== set.name) continue;
    out.push({ set, cards });
  }
  return shuffled(out, mulberry32(DEMO_SEED));
}

export function maxScale(catalogue: Catalogue): number {
  return Math.min(MAX_SCALE, Math.floor(eligibleSets(catalogue).length / SETS_PER_SCALE));
}

/**
 * The span before the run that deliveries (and what follows them) fall in: the dispute window
 * less an hour (at most half of it) to spare, so that the completion timer a delivery starts is
 * never due before the real now — at most three weeks.
 */
export function deliverySpan(disputeWindowMs: number): number {
  return Math.min(disputeWindowMs - Math.min(HOUR, disputeWindowMs / 2), MAX_DELIVERY_SPAN_MS);
}

export function planDemo(catalogue: Catalogue, scale: number, options: { disputeWindowMs?: number } = {}): DemoPlan {
  const disputeWindowMs = options.disputeWindowMs ?? DEFAULT_DISPUTE_WINDOW_MS;
  const span = deliverySpan(disputeWindowMs);
  const chosen = eligibleSets(catalogue).slice(0, scale * SETS_PER_SCALE);
  const plan: DemoPlan = { scale, disputeWindowMs, deliverySpanMs: span, sets: [], items: [], requests: [], offers: [] };
  const cents = (minor: number) => Math.max(1, Math.round(minor));
  let tradeIndex = 0;
  chosen.forEach(({ set, cards }, setIndex) => {
    // Each set draws from its own PRNGs (content, times): its data does not depend on the scale.
    const rnd = mulberry32(hash32(`${DEMO_SEED}:${set.setId}`));
    const when = mulberry32(hash32(`${DEMO_SEED}:time:${set.setId}`));
    /** An offset (ms before the run) uniformly between `earliest` and `latest` (ms before the run, earliest ≥ latest). */
    const ago = (earliest: number, latest: number) => Math.round(latest + when() * (earliest - latest));
    const picked = shuffled(cards, rnd).slice(0, STOCKED_PER_SET + UNSTOCKED_PER_SET).map((c) => plannedCard(c, set.name));
    const stocked = picked.slice(0, STOCKED_PER_SET);
    const unstocked = picked.slice(STOCKED_PER_SET);
    plan.sets.push({ setId: set.setId, name: set.name });
    const firstItem = plan.items.length;
    const item = (card: PlannedCard, condition: ConditionCode, role: PlannedItem['role'], priceMinor?: number, quantity?: number) => {
      const qty = quantity ?? (() => {
        const x = rnd();
        return x < 0.6 ? 1 : x < 0.85 ? 2 : 3;
      })();
      plan.items.push({
        sku: `${SKU_PREFIX}${String(plan.items.length + 1).padStart(4, '0')}`,
        card,
        condition,
        priceMinor: priceMinor ?? cents(card.baseMinor * CONDITIONS[condition] * between(rnd, 0.9, 1.1)),
        quantity: qty,
        role,
        listedAgo: 0,
      });
      return plan.items.length - 1;
    };
    const request = (card: PlannedCard, condition: ConditionCode, kind: PlannedRequest['kind'], lo: number, hi: number) => {
      plan.requests.push({
        card,
        condition,
        maxPriceMinor: cents(card.baseMinor * CONDITIONS[condition] * between(rnd, lo, hi)),
        buyer: `Demo buyer ${String(plan.requests.length + 1).padStart(3, '0')}`,
        kind,
        createdAgo: 0,
        archivedAgo: null,
      });
      return plan.requests.length - 1;
    };

    // The market card (the first): three Near Mint listings, buyers, and the planted outlier.
    const [market, ...rest] = stocked;
    for (let i = 0; i < 3; i++) item(market, 'NM', 'market');
    const marketBuyers = [request(market, 'NM', 'wanted', 0.92, 1.05), request(market, 'NM', 'wanted', 0.92, 1.05)];
    const direction = setIndex % 2 === 0 ? 'above' : 'below';
    const factor = direction === 'above' ? 5 : 0.3;
    const outlier = item(market, 'NM', 'outlier', cents(market.baseMinor * factor), 1);
    plan.items[outlier].outlier = { direction, factor };

    // The other stocked cards: Near Mint, sometimes LP and MP too.
    const nearMint: number[] = [];
    for (const card of rest) {
      nearMint.push(item(card, 'NM', 'stock'));
      if (rnd() < 0.5) item(card, 'LP', 'stock');
      if (rnd() < 0.3) item(card, 'MP', 'stock');
    }

    // Demand: wanted on five stocked cards, one far under every listing, and cards never stocked.
    const wanted = rest.slice(0, OFFER_ANSWERS.length).map((card) => {
      const condition: ConditionCode = rnd() < 0.7 ? 'NM' : 'LP';
      return request(card, condition, 'wanted', 0.9, 1.12);
    });
    const lowball = request(rest[OFFER_ANSWERS.length], 'NM', 'lowball', 0.45, 0.55);
    const never = unstocked.map((card, i) => request(card, rnd() < 0.6 ? 'NM' : 'LP', i === unstocked.length - 1 ? 'archived' : 'unstocked', 0.9, 1.1));

    // Offers from buyers on the wanted cards' Near Mint items, answered in turn.
    const tradeOrdinals: number[] = [];
    const offers = OFFER_ANSWERS.map((answer, i) => {
      const target = nearMint[i];
      tradeOrdinals.push(answer === 'accept' ? tradeIndex++ : -1);
      plan.offers.push({
        item: target,
        request: wanted[i],
        amountMinor: cents(plan.items[target].priceMinor * between(rnd, 0.9, 1)),
        answer,
        stage: answer === 'accept' ? TRADE_STAGES[tradeOrdinals[i] % TRADE_STAGES.length] : null,
        madeAgo: 0,
        answeredAgo: null,
        moves: [],
      });
      return plan.offers.length - 1;
    });
    // The market card's third buyer (drawn after the rest of the set's content, which it leaves as it was).
    while (marketBuyers.length < MARKET_BUYERS) marketBuyers.push(request(market, 'NM', 'wanted', 0.92, 1.05));

    // When. The set's stock, in the order planned, over its wave.
    const [stockFrom, stockTo] = STOCK_WAVES[setIndex % STOCK_WAVES.length].map((days) => days * DAY);
    const setItems = plan.items.slice(firstItem);
    setItems.forEach((it, k) => (it.listedAgo = Math.round(stockFrom - ((stockFrom - stockTo) * (k + when())) / setItems.length)));
    // Its demand, from half a day after its last listing: the market's first buyer a day after
    // it (for the first two waves, in the 30 days before the current 30), the others later.
    const demandFrom = stockTo - DAY / 2;
    marketBuyers.forEach((r, i) => (plan.requests[r].createdAgo = i === 0 ? ago(demandFrom, demandFrom - DAY) : ago(Math.min(demandFrom, 28 * DAY), 2 * DAY)));
    for (const r of wanted) plan.requests[r].createdAgo = ago(demandFrom, 4 * DAY);
    plan.requests[lowball].createdAgo = ago(demandFrom, 2 * DAY);
    for (const r of never) {
      const req = plan.requests[r];
      if (req.kind === 'archived') {
        // Archived between 30 % and 80 % of the way from its creation to a day before the run.
        req.createdAgo = ago(demandFrom, 4 * DAY);
        req.archivedAgo = Math.round(req.createdAgo - (req.createdAgo - DAY) * (0.3 + 0.5 * when()));
      } else {
        // In the first half of the set's demand: most of them missed demand (unmatched over 14 days).
        req.createdAgo = ago(demandFrom, Math.max(3 * DAY, demandFrom / 2));
      }
    }
    // The offers, their answers and the trades' moves.
    offers.forEach((o, i) => Object.assign(plan.offers[o], offerTimes(plan.offers[o], tradeOrdinals[i], plan.requests[wanted[i]].createdAgo, span, when)));
  });
  checkPlan(plan);
  return plan;
}

/**
 * An offer's times: left pending, it is made in the final day (its default 48 h expiry runs from
 * there); rejected, it is made half a day to four days after its request (at least a day and a
 * half before the run) and answered 2 to 30 hours later. Accepted, its trade is opened, paid and
 * shipped in the final day when it stops there; else it is delivered within the delivery span
 * (those left delivered: in the final day), completed and settled after that, and its earlier
 * steps (made, accepted, paid, shipped) come before at their usual pace — compressed when its
 * request is too recent for it.
 */
function offerTimes(offer: PlannedOffer, tradeOrdinal: number, requestAgo: number, span: number, when: () => number): Pick<PlannedOffer, 'madeAgo' | 'answeredAgo' | 'moves'> {
  const ago = (earliest: number, latest: number) => Math.round(latest + when() * (earliest - latest));
  if (offer.answer === 'pending') return { madeAgo: ago(FINAL_DAY_FROM_MS, FINAL_DAY_TO_MS), answeredAgo: null, moves: [] };
  if (offer.answer === 'reject') {
    const madeAgo = Math.max(1.5 * DAY, requestAgo - ago(4 * DAY, DAY / 2));
    return { madeAgo, answeredAgo: madeAgo - ago(30 * HOUR, 2 * HOUR), moves: [] };
  }
  const stage = offer.stage ?? 'initiated';
  const path = TRADE_PATH.slice(0, TRADE_PATH.indexOf(stage as TradeMoveTo) + 1);
  if (!path.includes('delivered')) {
    const accepted = ago(18 * HOUR, 10 * HOUR);
    const paid = accepted - ago(3 * HOUR, HOUR);
    const shipped = paid - ago(3 * HOUR, HOUR);
    const at: Record<string, number> = { paid, shipped };
    return { madeAgo: accepted + ago(4 * HOUR, 30 * MINUTE), answeredAgo: accepted, moves: path.map((to) => ({ to, ago: at[to] })) };
  }
  // Deliveries of the trades that go on spread over 95 % to 45 % of the span (a trade's slot by its
  // ordinal, so that every twelve consecutive trades cover it); those left delivered, in the final day.
  const slot = (((tradeOrdinal * 5) % TRADE_STAGES.length) + when()) / TRADE_STAGES.length;
  const delivered =
    stage === 'delivered'
      ? ago(Math.min(FINAL_DAY_FROM_MS, 0.4 * span), Math.min(FINAL_DAY_TO_MS, 0.05 * span))
      : Math.min(Math.round(span * (0.95 - 0.5 * slot)), requestAgo - 12 * HOUR); // a long window: not before its request
  // Completed 2-20 % of the time since delivery later, settled 2-15 % later again.
  const completed = delivered - Math.round(delivered * between(when, 0.02, 0.2));
  const settled = completed - Math.round(delivered * between(when, 0.02, 0.15));
  // Before delivery, at the usual pace (in transit 1.5-4 days, shipped 0.3-1.5 days after
  // payment, paid 2-20 hours after acceptance, accepted 2-30 hours after the offer)…
  const gaps = [ago(4 * DAY, 1.5 * DAY), ago(1.5 * DAY, 0.3 * DAY), ago(20 * HOUR, 2 * HOUR), ago(30 * HOUR, 2 * HOUR)];
  // …unless the request is too recent for it: then faster, the offer an hour after the request.
  const room = requestAgo - HOUR - delivered;
  const k = Math.min(1, room / gaps.reduce((a, b) => a + b, 0));
  const shipped = delivered + Math.round(k * gaps[0]);
  const paid = shipped + Math.round(k * gaps[1]);
  const accepted = paid + Math.round(k * gaps[2]);
  const madeAgo = accepted + Math.round(k * gaps[3]);
  const at: Record<TradeMoveTo, number> = { paid, shipped, delivered, completed, settled };
  return { madeAgo, answeredAgo: accepted, moves: path.map((to) => ({ to, ago: at[to] })) };
}
