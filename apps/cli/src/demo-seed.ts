// `demo seed --workspace <slug> [--scale <n>]`: fills an existing workspace with demo data made from
// the project's real card data (libs/catalog/data: cards.csv, sets.csv), deterministically — the
// same scale (and dispute window) always plans the same sets, cards, conditions, prices,
// quantities, requests, offers, trade stages and times (mulberry32 from a fixed seed; a card's
// base price from its id, whatever the scale; every time an offset from the run's start, see
// "When").
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
//
// Why this is honest: every event is still decided and written by its context's own handler,
// through the CommandBus, with the handler's own normalization, matching and rules; the seed only
// chooses *when*, and the business times inside the events (an item's createdAt, a request's, an
// offer's, a trade move's `at`) are the simulated ones. The log's own append time (each stored
// event's createdAt) is real: the log itself shows that six weeks of history were written in one
// run of a few seconds, by actor `cli`.
//
// How it writes: the commands the contexts' entries export, on the CommandBus, with actor `cli`
// (like the CLI's other commands; no API key is involved) — CreateInventoryItemCommand
// (@app/supply), CreateBuyerRequestCommand and ArchiveBuyerRequestCommand (@app/demand),
// MakeOfferCommand, AnswerOfferCommand and MoveTradeCommand (@app/trading). Their inputs are what
// the routes build from a body their schemas accept (amounts in minor units from 2-decimal prices,
// trimmed text within the routes' lengths, none of the characters the API refuses; checked before
// each write). What a route does besides, the seed does: the read models are caught up before a
// write that reads them whenever anything was written since (a request's instant matching reads
// the inventory, an offer reads its buyer request, an answer its offer).
//
// Twice: a workspace that has demo data already (an item of the plan's first card with a DEMO- sku)
// is refused (409 CONFLICT) before anything is written.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';

import { WorkspaceDirectory } from '@app/access';
import { normalizeCardName, normalizeSetName, parseCsv } from '@app/catalog';
import { ArchiveBuyerRequestCommand, CreateBuyerRequestCommand } from '@app/demand';
import { APP_CONFIG, type AppConfig, ApiError, type Clock, currencyCode, findHostileText, moneyAmount, ProjectionRunner } from '@app/platform';
import { CreateInventoryItemCommand, ListInventoryItemsQuery } from '@app/supply';
import { AnswerOfferCommand, MakeOfferCommand, MoveTradeCommand } from '@app/trading';

import { CliModule } from './cli.module';
import { mulberry32 } from './random';

/** The PRNG's seed (issue 16). Fixed: the same scale always plans the same data. */
export const DEMO_SEED = 16;
export const MAX_SCALE = 25;
const SETS_PER_SCALE = 4;
const STOCKED_PER_SET = 10;
const UNSTOCKED_PER_SET = 4;
export const SKU_PREFIX = 'DEMO-';
const NOTES = 'Demo data (npm run cli -- demo seed)';
const SOURCE = 'demo-seed';
/** Who the events say wrote them: the CLI, as for its other commands. */
const ACTOR = 'cli';
const CURRENCY = 'USD';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How far back the simulated clock starts. */
export const HISTORY_DAYS = 42;
/** The validity of the offers the seed answers (their own `expiresAt`): past the real now for all of them. */
export const ANSWERED_OFFER_VALIDITY_DAYS = 60;
const DEFAULT_DISPUTE_WINDOW_MS = 3 * DAY;
/** The most the delivered-to-settled part of the history spans (a longer dispute window allows it). */
const MAX_DELIVERY_SPAN_MS = 21 * DAY;

export const CLOCK_NOTE =
  'Simulated: the seed\'s context read time from a clock it moved forward through the plan, from 42 days before the run to ' +
  'the final day, never backwards and never past the real now — so the business times in the events (listed, requested, ' +
  'offered, answered, paid, shipped, delivered, completed, settled) span six weeks. Each event was still written by its ' +
  'context\'s own handler; the log\'s own append times are real (this run). No timer was left due: answered offers ran ' +
  `${ANSWERED_OFFER_VALIDITY_DAYS} days, trades were delivered within the dispute window, what is pending was made in the final day.`;

// ---------------------------------------------------------------------------------------------
// Randomness: mulberry32 (./random) and FNV-1a (a card's base price depends on its id only, not on the seed).

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function shuffled<T>(list: readonly T[], rnd: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const between = (rnd: () => number, lo: number, hi: number) => lo + rnd() * (hi - lo);

// ---------------------------------------------------------------------------------------------
// The catalogue: libs/catalog/data, found from this file up (a clone: the project root; the Docker
// image: dist/, where its build — swc --copy-files without the npm script's --ignore — copies it).

export interface CatalogueCard {
  cardId: string;
  name: string;
  setId: string;
  number: string;
  rarity: string;
  supertype: string;
}

export interface CatalogueSetRow {
  setId: string;
  name: string;
}

export interface Catalogue {
  dir: string;
  cards: CatalogueCard[];
  sets: CatalogueSetRow[];
}


export function findCatalogueDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'libs', 'catalog', 'data');
    if (existsSync(join(candidate, 'cards.csv')) && existsSync(join(candidate, 'sets.csv'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new ApiError(500, 'CATALOGUE_NOT_FOUND', `The card data (libs/catalog/data/cards.csv, sets.csv) was not found above ${from}: run the CLI from a clone of the project`);
}

export function loadCatalogue(dir: string = findCatalogueDir()): Catalogue {
  const read = (file: string) => parseCsv(readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, ''));
  return {
    dir,
    cards: read('cards.csv').map((r) => ({ cardId: r.card_id, name: r.name, setId: r.set_id, number: r.number, rarity: r.rarity, supertype: r.supertype })),
    sets: read('sets.csv').map((r) => ({ setId: r.set_id, name: r.name })),
  };
}

// ---------------------------------------------------------------------------------------------
// The plan: pure, from the catalogue, the scale and the dispute window. Its times are offsets
// before the run's start, in ms (`…Ago`): the run turns them into the simulated clock's moments.

export const CONDITIONS = { NM: 1, LP: 0.82, MP: 0.64 } as const;
export type ConditionCode = keyof typeof CONDITIONS;
export const TRADE_PATH = ['paid', 'shipped', 'delivered', 'completed', 'settled'] as const;
export type TradeMoveTo = (typeof TRADE_PATH)[number];
export type TradeStage = 'initiated' | TradeMoveTo;
/** The stage each accepted offer's trade is taken to, in turn. */
const TRADE_STAGES: readonly TradeStage[] = ['settled', 'completed', 'settled', 'delivered', 'shipped', 'settled', 'paid', 'completed', 'initiated', 'settled', 'delivered', 'settled'];
/** The answers to each set's offers, in turn. */
const OFFER_ANSWERS = ['accept', 'accept', 'accept', 'reject', 'pending'] as const;
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
/** The final day's stretch (before the run) where what is left pending is made. */
const FINAL_DAY_FROM_MS = 20 * HOUR;
const FINAL_DAY_TO_MS = HOUR;

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

/** A card's base price (cents), log-uniform in its rarity's band, from its id alone. */
export function basePriceMinor(card: Pick<CatalogueCard, 'cardId' | 'rarity'>): number {
  const r = card.rarity.toLowerCase();
  const [lo, hi] =
    r === 'rare'
      ? [200, 2_500]
      : r === 'rare holo'
        ? [1_500, 30_000]
        : r.startsWith('rare holo ')
          ? [800, 12_000]
          : /secret|rainbow|hyper|special illustration|gold|shining|star|shiny|ultra|illustration|prime|legend|break|radiant|amazing|ace/.test(r)
            ? [1_500, 40_000]
            : [300, 5_000];
  const u = mulberry32(hash32(card.cardId))();
  return Math.round(lo * (hi / lo) ** u);
}

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

/**
 * The plan's times obey what the run relies on, or the plan is a bug: everything within the
 * history and before the run; a set's demand after all its stock; each offer after its item and
 * its request, each step of it after the one before; deliveries within the delivery span (their
 * completion timers due after the run); what is left pending made in the final day.
 */
function checkPlan(plan: DemoPlan): void {
  const problems: string[] = [];
  const within = (what: string, ago: number) => {
    if (!(Number.isInteger(ago) && ago > 0 && ago <= HISTORY_DAYS * DAY)) problems.push(`${what} at ${ago} ms before the run`);
  };
  const lastListing = new Map<string, number>();
  plan.items.forEach((item, i) => {
    within(`item ${i}`, item.listedAgo);
    lastListing.set(item.card.setId, Math.min(lastListing.get(item.card.setId) ?? Infinity, item.listedAgo));
  });
  plan.requests.forEach((r, i) => {
    within(`request ${i}`, r.createdAgo);
    if (!(r.createdAgo < (lastListing.get(r.card.setId) ?? Infinity))) problems.push(`request ${i} before its set's stock`);
    if (r.archivedAgo !== null && !(r.archivedAgo < r.createdAgo && r.archivedAgo > 0)) problems.push(`request ${i} archived out of order`);
  });
  plan.offers.forEach((o, i) => {
    within(`offer ${i}`, o.madeAgo);
    if (!(o.madeAgo < plan.items[o.item].listedAgo)) problems.push(`offer ${i} before its item`);
    if (o.request !== null && !(o.madeAgo < plan.requests[o.request].createdAgo)) problems.push(`offer ${i} before its request`);
    if (o.answer === 'pending' && !(o.answeredAgo === null && o.madeAgo <= FINAL_DAY_FROM_MS)) problems.push(`pending offer ${i} not made in the final day`);
    const steps = [o.madeAgo, ...(o.answeredAgo === null ? [] : [o.answeredAgo]), ...o.moves.map((m) => m.ago)];
    if (steps.some((ago, s) => s > 0 && !(ago < steps[s - 1] && ago > 0))) problems.push(`offer ${i}'s steps out of order`);
    for (const m of o.moves) if (m.to === 'delivered' && !(m.ago <= plan.deliverySpanMs)) problems.push(`offer ${i}'s trade delivered before the delivery span`);
    const last = o.moves.at(-1);
    if (o.answer === 'accept' && last?.to !== 'completed' && last?.to !== 'settled' && !((last?.ago ?? o.answeredAgo ?? Infinity) <= FINAL_DAY_FROM_MS)) {
      problems.push(`offer ${i}'s trade is left ${last?.to ?? 'initiated'}, but not from the final day`);
    }
  });
  if (problems.length > 0) throw new Error(`demo seed: the plan breaks its own timeline: ${problems.slice(0, 5).join('; ')}`);
}

/** A hash of everything the plan says (cards, prices, counts, stages, times): equal plans, equal prints. */
export function planFingerprint(plan: DemoPlan): string {
  const facts = {
    sets: plan.sets,
    disputeWindowMs: plan.disputeWindowMs,
    items: plan.items.map((i) => [i.sku, i.card.cardId, i.condition, i.priceMinor, i.quantity, i.role, i.listedAgo]),
    requests: plan.requests.map((r) => [r.card.cardId, r.condition, r.maxPriceMinor, r.kind, r.createdAgo, r.archivedAgo]),
    offers: plan.offers.map((o) => [o.item, o.request, o.amountMinor, o.answer, o.stage, o.madeAgo, o.answeredAgo, o.moves]),
  };
  return `sha256:${createHash('sha256').update(JSON.stringify(facts)).digest('hex')}`;
}

/** One write of the run, at its time. */
export type DemoStep =
  | { kind: 'item' | 'request' | 'archive' | 'offer' | 'answer'; index: number; ago: number }
  | { kind: 'move'; index: number; to: TradeMoveTo; ago: number };

/** The plan's writes in the order of their times (earliest first; the plan's order among equal times). */
export function demoTimeline(plan: DemoPlan): DemoStep[] {
  const steps: DemoStep[] = [
    ...plan.items.map((i, index) => ({ kind: 'item' as const, index, ago: i.listedAgo })),
    ...plan.requests.map((r, index) => ({ kind: 'request' as const, index, ago: r.createdAgo })),
    ...plan.requests.flatMap((r, index) => (r.archivedAgo === null ? [] : [{ kind: 'archive' as const, index, ago: r.archivedAgo }])),
    ...plan.offers.map((o, index) => ({ kind: 'offer' as const, index, ago: o.madeAgo })),
    ...plan.offers.flatMap((o, index) => (o.answeredAgo === null ? [] : [{ kind: 'answer' as const, index, ago: o.answeredAgo }])),
    ...plan.offers.flatMap((o, index) => o.moves.map((m) => ({ kind: 'move' as const, index, to: m.to, ago: m.ago }))),
  ];
  return steps.sort((a, b) => b.ago - a.ago);
}

// ---------------------------------------------------------------------------------------------
// Progress on stderr: a bar redrawn in place on a terminal, else one line per phase.

class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private done = 0;
  private phase = '';
  private phaseDone = 0;
  private phaseStarted = 0;
  private lastDraw = 0;

  constructor(private readonly total: number) {}

  start(phase: string): void {
    this.phase = phase;
    this.phaseDone = 0;
    this.phaseStarted = Date.now();
    this.draw(true);
  }

  tick(): void {
    this.done++;
    this.phaseDone++;
    this.draw(false);
  }

  end(): void {
    if (this.tty) this.draw(true);
    else process.stderr.write(`demo seed: ${this.phase}: ${this.phaseDone} in ${Date.now() - this.phaseStarted} ms (${this.percent()}%)\n`);
  }

  finish(): void {
    if (this.tty) process.stderr.write('\n');
  }

  private percent(): number {
    return this.total === 0 ? 100 : Math.floor((100 * this.done) / this.total);
  }

  private draw(force: boolean): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 50) return;
    this.lastDraw = now;
    const width = 24;
    const filled = Math.round((width * this.percent()) / 100);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(this.percent()).padStart(3)}% ${this.phase.padEnd(10)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The simulated clock, and the checks a route's schema would make of the inputs the seed builds.

/**
 * The CLOCK of the seed's context: it stands still until moved, moves only forward, and never
 * past the real now (read from `realNow` at each move).
 */
export class SimulatedClock implements Clock {
  private at: number;

  constructor(
    start: Date,
    private readonly realNow: () => number = Date.now,
  ) {
    if (!(start.getTime() <= realNow())) throw new Error(`A simulated clock cannot start after the real now (${start.toISOString()})`);
    this.at = start.getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  advanceTo(to: Date): void {
    const t = to.getTime();
    if (!(t >= this.at)) throw new Error(`The simulated clock does not go back (from ${new Date(this.at).toISOString()} to ${to.toISOString()})`);
    if (!(t <= this.realNow())) throw new Error(`The simulated clock does not pass the real now (asked for ${to.toISOString()})`);
    this.at = t;
  }
}

/** The limits the routes' schemas put on the text fields the seed fills (trimmed, 1 to n characters). */
const TEXT_LIMITS = {
  item: { cardName: 200, setName: 200, condition: 60, sku: 100, cardNumber: 40, notes: 2000 },
  request: { cardName: 200, setName: 200, condition: 60, source: 100, 'buyer.displayName': 200 },
  offer: { message: 1000 },
  move: { reference: 200, carrier: 100, trackingNumber: 100 },
} as const;
/** The inventory route's bound on units. */
const MAX_QUANTITY = 100_000;

/**
 * Refuses (as a bug: the plan made it) an input a route's schema would refuse: text untrimmed,
 * empty or too long, a character the API refuses anywhere, an amount that is not a price with at
 * most 2 decimals, a currency that is not an ISO 4217 code, a quantity out of bounds.
 */
function requireValid(what: keyof typeof TEXT_LIMITS, input: object, amountsMinor: number[], quantity?: number): void {
  const problems: string[] = [];
  const hostile = findHostileText(input);
  if (hostile) problems.push(`${hostile.path} contains ${hostile.found}`);
  for (const [path, max] of Object.entries(TEXT_LIMITS[what])) {
    const value = path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | null | undefined)?.[key], input);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.trim() !== value || value.length < 1 || value.length > max) problems.push(`${path} is not 1 to ${max} trimmed characters`);
  }
  for (const minor of amountsMinor) if (!(Number.isInteger(minor) && moneyAmount.safeParse(minor / 100).success)) problems.push(`${minor} is not an amount in minor units`);
  const currency = (input as { currency?: unknown }).currency;
  if (currency !== undefined && currencyCode.safeParse(currency).data !== currency) problems.push(`${String(currency)} is not an ISO 4217 code`);
  if (quantity !== undefined && !(Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY)) problems.push(`quantity ${quantity} is out of bounds`);
  if (problems.length > 0) throw new ApiError(500, 'INTERNAL', `demo seed: the plan made an invalid ${what}: ${problems.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// The run.

export interface DemoSeedOptions {
  slug: string;
  scale: number;
}

const WEEK = 7 * DAY;
const HISTORY_WEEKS = Math.ceil(HISTORY_DAYS / 7);
/** The progress phase of a write: the week of the history it falls in (1 … 6, the last ends at the run). */
const weekOf = (ago: number) => `week ${Math.min(HISTORY_WEEKS, Math.max(1, HISTORY_WEEKS - Math.floor(ago / WEEK)))}`;

export async function demoSeed(app: INestApplicationContext, options: DemoSeedOptions): Promise<unknown> {
  const started = Date.now();
  const catalogue = loadCatalogue();
  const limit = maxScale(catalogue);
  if (options.scale > limit) throw new ApiError(400, 'VALIDATION_FAILED', `--scale is at most ${limit} (the catalogue has ${limit * SETS_PER_SCALE} sets the demo can use)`);
  const config = app.get<AppConfig>(APP_CONFIG);
  const plan = planDemo(catalogue, options.scale, { disputeWindowMs: config.TRADE_DISPUTE_WINDOW_SECONDS * 1000 });

  await app.get(ProjectionRunner).catchUp();
  const workspace = await app.get(WorkspaceDirectory).bySlug(options.slug);
  if (!workspace) throw new ApiError(404, 'NOT_FOUND', `No workspace with slug "${options.slug}"`);

  // Refuse a workspace seeded already: the plan's first item's card, with a DEMO- sku.
  const first = plan.items[0];
  const existing = await app.get(QueryBus).execute(new ListInventoryItemsQuery(workspace.id, { cardName: first.card.name, setName: first.card.setName }, 100));
  const seeded = existing.items.find((i) => i.sku?.startsWith(SKU_PREFIX));
  if (seeded) {
    throw new ApiError(
      409,
      'CONFLICT',
      `Workspace "${options.slug}" has demo data already (inventory item ${seeded.id}, sku ${seeded.sku}): the seed refuses to add it twice. Seed a fresh workspace instead.`,
      { inventoryItemId: seeded.id, sku: seeded.sku },
    );
  }

  // The seed's own context: the CLI's composition, with the simulated clock as its CLOCK.
  const runStart = Date.now();
  const clock = new SimulatedClock(new Date(runStart - HISTORY_DAYS * DAY));
  const seedContext = await NestFactory.createApplicationContext(CliModule.forRoot(config, { clock }), { logger: ['error'] });
  try {
    const runner = seedContext.get(ProjectionRunner);
    const bus = seedContext.get(CommandBus);
    const steps = demoTimeline(plan);
    const progress = new Progress(steps.length);
    let writes = 0;
    // Read models behind the log: caught up before a write that reads them, when anything was written since.
    let behind = true;
    const caughtUp = async () => {
      if (!behind) return;
      await runner.catchUp();
      behind = false;
    };
    const correlationId = () => `demo-seed-${writes + 1}`;

    const itemIds: string[] = [];
    const requestIds: string[] = [];
    const offerIds: string[] = [];
    const tradeIds = new Map<number, string>();
    const tradeNumbers = new Map<number, number>();
    let matchedAtCreation = 0;
    let phase = '';
    for (const step of steps) {
      clock.advanceTo(new Date(runStart - step.ago));
      if (weekOf(step.ago) !== phase) {
        if (phase) progress.end();
        phase = weekOf(step.ago);
        progress.start(phase);
      }
      switch (step.kind) {
        case 'item': {
          const item = plan.items[step.index];
          const input = {
            cardName: item.card.name,
            setName: item.card.setName,
            condition: item.condition,
            priceMinor: item.priceMinor,
            currency: CURRENCY,
            quantity: item.quantity,
            status: 'available' as const,
            sku: item.sku,
            cardNumber: item.card.number,
            notes: NOTES,
          };
          requireValid('item', input, [input.priceMinor], input.quantity);
          itemIds[step.index] = (await bus.execute(new CreateInventoryItemCommand(workspace.id, ACTOR, input, correlationId()))).id;
          break;
        }
        case 'request': {
          const r = plan.requests[step.index];
          const input = {
            cardName: r.card.name,
            setName: r.card.setName,
            condition: r.condition,
            maxPriceMinor: r.maxPriceMinor,
            currency: CURRENCY,
            source: SOURCE,
            buyer: { externalId: null, displayName: r.buyer },
          };
          requireValid('request', input, [input.maxPriceMinor]);
          await caughtUp(); // its instant matching reads the inventory
          const created = await bus.execute(new CreateBuyerRequestCommand(workspace.id, ACTOR, input, correlationId()));
          requestIds[step.index] = created.id;
          if (created.matchCount > 0) matchedAtCreation++;
          break;
        }
        case 'archive':
          await bus.execute(new ArchiveBuyerRequestCommand(workspace.id, ACTOR, requestIds[step.index], 'demo: nothing in stock for it', correlationId()));
          break;
        case 'offer': {
          const o = plan.offers[step.index];
          const input = {
            inventoryItemId: itemIds[o.item],
            buyerRequestId: o.request === null ? null : requestIds[o.request],
            matchId: null,
            amountMinor: o.amountMinor,
            currency: CURRENCY,
            quantity: 1,
            from: 'buyer' as const,
            message: 'Demo offer',
            // An offer the seed answers later stands for 60 days; a pending one lapses after the default 48 h.
            ...(o.answeredAgo === null ? {} : { expiresAt: new Date(clock.now().getTime() + ANSWERED_OFFER_VALIDITY_DAYS * DAY).toISOString() }),
          };
          requireValid('offer', input, [input.amountMinor], input.quantity);
          await caughtUp(); // it reads its buyer request
          offerIds[step.index] = (await bus.execute(new MakeOfferCommand(workspace.id, ACTOR, input, correlationId()))).id;
          break;
        }
        case 'answer': {
          const o = plan.offers[step.index];
          await caughtUp(); // it reads its offer
          const answered = await bus.execute(
            new AnswerOfferCommand(
              workspace.id,
              ACTOR,
              offerIds[step.index],
              o.answer === 'accept' ? { type: 'accept', party: 'seller' } : { type: 'reject', party: 'seller', reason: 'demo: too low' },
              correlationId(),
            ),
          );
          if (o.answer === 'accept') {
            if (!answered.tradeId) throw new ApiError(500, 'INTERNAL', `demo seed: accepting offer ${offerIds[step.index]} opened no trade`);
            tradeIds.set(step.index, answered.tradeId);
            tradeNumbers.set(step.index, tradeNumbers.size + 1);
          }
          break;
        }
        case 'move': {
          const n = tradeNumbers.get(step.index) ?? 0;
          const move =
            step.to === 'paid'
              ? { to: step.to, reference: `DEMO-PAY-${String(n).padStart(4, '0')}` }
              : step.to === 'shipped'
                ? { to: step.to, carrier: 'USPS', trackingNumber: `DEMO ${String(9400100000 + n)}` }
                : { to: step.to };
          requireValid('move', move, []);
          await bus.execute(new MoveTradeCommand(workspace.id, ACTOR, tradeIds.get(step.index) ?? '', move, correlationId()));
          break;
        }
      }
      behind = true;
      writes++;
      progress.tick();
    }
    await runner.catchUp();
    if (phase) progress.end();
    progress.finish();

    const byStatus: Record<string, number> = {};
    for (const o of plan.offers) if (o.answer === 'accept') byStatus[o.stage ?? 'initiated'] = (byStatus[o.stage ?? 'initiated'] ?? 0) + 1;
    const count = (kind: PlannedRequest['kind']) => plan.requests.filter((r) => r.kind === kind).length;
    const answers = (answer: PlannedOffer['answer']) => plan.offers.filter((o) => o.answer === answer).length;
    return {
      workspace: { id: workspace.id, slug: workspace.slug },
      scale: plan.scale,
      seed: DEMO_SEED,
      fingerprint: planFingerprint(plan),
      clock: {
        simulated: true,
        from: new Date(runStart - HISTORY_DAYS * DAY).toISOString(),
        firstWrite: new Date(runStart - (steps[0]?.ago ?? 0)).toISOString(),
        lastWrite: clock.now().toISOString(),
        disputeWindowDays: Math.round((plan.disputeWindowMs / DAY) * 1000) / 1000,
        note: CLOCK_NOTE,
      },
      catalogue: `${catalogue.cards.length} cards, ${catalogue.sets.length} sets from ${relative(process.cwd(), catalogue.dir) || '.'}`,
      sets: plan.sets.map((s) => ({ ...s, inventoryItems: plan.items.filter((i) => i.card.setId === s.setId).length })),
      counts: {
        cards: {
          stocked: new Set(plan.items.map((i) => i.card.cardId)).size,
          requestedOnly: new Set(plan.requests.filter((r) => r.kind === 'unstocked' || r.kind === 'archived').map((r) => r.card.cardId)).size,
        },
        inventoryItems: plan.items.length,
        units: plan.items.reduce((n, i) => n + i.quantity, 0),
        itemsWithSeveralUnits: plan.items.filter((i) => i.quantity > 1).length,
        buyerRequests: {
          total: plan.requests.length,
          onStockedCards: count('wanted'),
          underEveryListing: count('lowball'),
          neverStocked: count('unstocked'),
          archivedUnmatched: count('archived'),
          matchedAtCreation,
          inTheLast30Days: plan.requests.filter((r) => r.createdAgo <= 30 * DAY).length,
        },
        offers: { total: plan.offers.length, accepted: answers('accept'), rejected: answers('reject'), pending: answers('pending') },
        trades: { total: tradeIds.size, byStatus },
        writes,
      },
      outliers: plan.items.flatMap((item, i) =>
        item.outlier
          ? [
              {
                itemId: itemIds[i],
                sku: item.sku,
                card: item.card.name,
                set: item.card.setName,
                condition: 'Near Mint',
                price: item.priceMinor / 100,
                basePrice: item.card.baseMinor / 100,
                factor: item.outlier.factor,
                expected: { direction: item.outlier.direction, severity: 'high' },
              },
            ]
          : [],
      ),
      tookMs: Date.now() - started,
    };
  } finally {
    await seedContext.close();
  }
}
