// `demo seed --workspace <slug> [--scale <n>]`: fills an existing workspace with demo data made from
// the project's real card data (libs/catalog/data: cards.csv, sets.csv), deterministically — the
// same scale always plans the same sets, cards, conditions, prices, quantities, requests, offers and
// trade stages (mulberry32 from a fixed seed; a card's base price from its id, whatever the scale).
//
// What it writes (scale 1; --scale n multiplies every count: n × 4 sets):
// - stock: 10 rare cards a set, each in Near Mint and sometimes LP / MP, priced around the card's
//   base price (× 1, 0.82, 0.64 by condition, ± 10 %), 1 to 3 units;
// - per set one "market" card with three Near Mint listings and two buyers, and one planted outlier
//   on it: listed at 5 × the card's base price (sets 1, 3, …: tradegraph pricing flags it
//   above / high) or 0.3 × (sets 2, 4, …: below / high). No offer touches these cards;
// - buyer requests: on stocked cards (max price around the price), one far under every listing, and
//   on cards never stocked (missed demand), one of them archived without a match;
// - offers from buyers on stocked items: accepted (each opens a trade), rejected, left pending;
// - the trades moved along paid → shipped → delivered → completed → settled, each to its own stage.
//
// Time: every event carries the time it is written. The contexts' commands take no time of their
// own (their handlers read the CLOCK provider), so nothing can be back-dated without writing events
// by hand, which this does not do: everything is "now", and tradegraph's windows show it all in the
// current one.
//
// How it writes — only through the contexts' own command handlers, never events by hand:
// - the commands their entries export, on the CommandBus: MakeOfferCommand, AnswerOfferCommand
//   (@app/trading), ArchiveBuyerRequestCommand (@app/demand), CreateApiKeyCommand (@app/access);
// - what no entry exports (creating inventory items and buyer requests, moving trades) through the
//   API's own routes, in process: the API's composition (createApp, without workers and without a
//   socket) answers Fastify `inject` calls made with a seed key — created for the run, with the
//   secret never shown, and revoked at its end. Same validation, normalization and matching as a
//   client gets; the read models are caught up between phases (the writes of one phase read those
//   of the one before: matching reads items, offers read requests, answers read offers).
//
// Twice: a workspace that has demo data already (an item of the plan's first card with a DEMO- sku)
// is refused (409 CONFLICT) before anything is written but the seed key (created, then revoked).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

import { CreateApiKeyCommand, WorkspaceDirectory } from '@app/access';
import { normalizeCardName, normalizeSetName, parseCsv } from '@app/catalog';
import { ArchiveBuyerRequestCommand } from '@app/demand';
import { APP_CONFIG, type AppConfig, ApiError, MAX_RATE_LIMIT, ProjectionRunner } from '@app/platform';
import { AnswerOfferCommand, MakeOfferCommand } from '@app/trading';

import { createApp } from '../../api/src/bootstrap';

/** The PRNG's seed (issue 16). Fixed: the same scale always plans the same data. */
export const DEMO_SEED = 16;
export const MAX_SCALE = 25;
const SETS_PER_SCALE = 4;
const STOCKED_PER_SET = 10;
const UNSTOCKED_PER_SET = 4;
export const SKU_PREFIX = 'DEMO-';
const NOTES = 'Demo data (npm run cli -- demo seed)';
const SOURCE = 'demo-seed';

export const CLOCK_NOTE =
  'Every event carries the time it was written: the contexts\' commands take no time of their own (handlers read the ' +
  'CLOCK provider), so the seed wrote everything now — tradegraph windows show it all in the current window, and the ' +
  'trades\' timelines span seconds, not weeks.';

// ---------------------------------------------------------------------------------------------
// Randomness: mulberry32 and FNV-1a (a card's base price depends on its id only, not on the seed).

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
// The plan: pure, from the catalogue and the scale.

export const CONDITIONS = { NM: 1, LP: 0.82, MP: 0.64 } as const;
export type ConditionCode = keyof typeof CONDITIONS;
export const TRADE_PATH = ['paid', 'shipped', 'delivered', 'completed', 'settled'] as const;
export type TradeStage = 'initiated' | (typeof TRADE_PATH)[number];
/** The stage each accepted offer's trade is taken to, in turn. */
const TRADE_STAGES: readonly TradeStage[] = ['settled', 'completed', 'settled', 'delivered', 'shipped', 'settled', 'paid', 'completed', 'initiated', 'settled', 'delivered', 'settled'];
/** The answers to each set's offers, in turn. */
const OFFER_ANSWERS = ['accept', 'accept', 'accept', 'reject', 'pending'] as const;

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
}

export interface PlannedRequest {
  card: PlannedCard;
  condition: ConditionCode;
  maxPriceMinor: number;
  buyer: string;
  /** wanted: on a stocked card near its price; lowball: under every listing; unstocked: never stocked; archived: never stocked, archived. */
  kind: 'wanted' | 'lowball' | 'unstocked' | 'archived';
}

export interface PlannedOffer {
  item: number;
  request: number | null;
  amountMinor: number;
  answer: (typeof OFFER_ANSWERS)[number];
  /** For an accepted offer: the stage its trade is taken to. */
  stage: TradeStage | null;
}

export interface DemoPlan {
  scale: number;
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

export function planDemo(catalogue: Catalogue, scale: number): DemoPlan {
  const chosen = eligibleSets(catalogue).slice(0, scale * SETS_PER_SCALE);
  const plan: DemoPlan = { scale, sets: [], items: [], requests: [], offers: [] };
  const cents = (minor: number) => Math.max(1, Math.round(minor));
  let tradeIndex = 0;
  chosen.forEach(({ set, cards }, setIndex) => {
    // Each set draws from its own PRNG: its content does not depend on the scale.
    const rnd = mulberry32(hash32(`${DEMO_SEED}:${set.setId}`));
    const picked = shuffled(cards, rnd).slice(0, STOCKED_PER_SET + UNSTOCKED_PER_SET).map((c) => plannedCard(c, set.name));
    const stocked = picked.slice(0, STOCKED_PER_SET);
    const unstocked = picked.slice(STOCKED_PER_SET);
    plan.sets.push({ setId: set.setId, name: set.name });
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
      });
      return plan.requests.length - 1;
    };

    // The market card (the first): three Near Mint listings, two buyers, and the planted outlier.
    const [market, ...rest] = stocked;
    for (let i = 0; i < 3; i++) item(market, 'NM', 'market');
    request(market, 'NM', 'wanted', 0.92, 1.05);
    request(market, 'NM', 'wanted', 0.92, 1.05);
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
    request(rest[OFFER_ANSWERS.length], 'NM', 'lowball', 0.45, 0.55);
    unstocked.forEach((card, i) => request(card, rnd() < 0.6 ? 'NM' : 'LP', i === unstocked.length - 1 ? 'archived' : 'unstocked', 0.9, 1.1));

    // Offers from buyers on the wanted cards' Near Mint items, answered in turn.
    OFFER_ANSWERS.forEach((answer, i) => {
      const target = nearMint[i];
      plan.offers.push({
        item: target,
        request: wanted[i],
        amountMinor: cents(plan.items[target].priceMinor * between(rnd, 0.9, 1)),
        answer,
        stage: answer === 'accept' ? TRADE_STAGES[tradeIndex++ % TRADE_STAGES.length] : null,
      });
    });
  });
  return plan;
}

/** A hash of everything the plan says (cards, prices, counts, stages): equal plans, equal prints. */
export function planFingerprint(plan: DemoPlan): string {
  const facts = {
    sets: plan.sets,
    items: plan.items.map((i) => [i.sku, i.card.cardId, i.condition, i.priceMinor, i.quantity, i.role]),
    requests: plan.requests.map((r) => [r.card.cardId, r.condition, r.maxPriceMinor, r.kind]),
    offers: plan.offers.map((o) => [o.item, o.request, o.amountMinor, o.answer, o.stage]),
  };
  return `sha256:${createHash('sha256').update(JSON.stringify(facts)).digest('hex')}`;
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
// The run.

export interface DemoSeedOptions {
  slug: string;
  scale: number;
}

interface Injected {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The API in this process: its composition and routes, no workers, no socket. */
async function inProcessApi(config: AppConfig): Promise<NestFastifyApplication> {
  const api = await createApp({
    ...config,
    RUN_WORKERS: false,
    LOG_LEVEL: 'silent',
    // The seed catches the read models up itself, between phases: a route does not wait for them.
    READ_YOUR_WRITES_TIMEOUT_MS: 1,
    // This process's own counters; a workspace's own limits still apply (429s are waited out).
    RATE_LIMIT_PER_MINUTE: MAX_RATE_LIMIT,
    RATE_LIMIT_PER_SECOND: MAX_RATE_LIMIT,
  });
  await api.init();
  await api.getHttpAdapter().getInstance().ready();
  return api;
}

export async function demoSeed(app: INestApplicationContext, options: DemoSeedOptions): Promise<unknown> {
  const started = Date.now();
  const catalogue = loadCatalogue();
  const limit = maxScale(catalogue);
  if (options.scale > limit) throw new ApiError(400, 'VALIDATION_FAILED', `--scale is at most ${limit} (the catalogue has ${limit * SETS_PER_SCALE} sets the demo can use)`);
  const plan = planDemo(catalogue, options.scale);

  await app.get(ProjectionRunner).catchUp();
  const workspace = await app.get(WorkspaceDirectory).bySlug(options.slug);
  if (!workspace) throw new ApiError(404, 'NOT_FOUND', `No workspace with slug "${options.slug}"`);

  const api = await inProcessApi(app.get<AppConfig>(APP_CONFIG));
  const runner = api.get(ProjectionRunner);
  const bus = api.get(CommandBus);
  const fastify = api.getHttpAdapter().getInstance();
  const key = await bus.execute(new CreateApiKeyCommand(workspace.id, 'demo seed (cli, revoked after the run)', ['admin'], 'cli'));
  await runner.catchUp();

  let requestNumber = 0;
  let writes = 0;
  const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { authorization: `Bearer ${key.secret}`, 'x-request-id': `demo-seed-${++requestNumber}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = (await fastify.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) })) as unknown as Injected;
      const parsed = (res.body ? JSON.parse(res.body) : undefined) as { code?: string; message?: string; details?: Record<string, unknown> } | undefined;
      if (res.statusCode === 429 && attempt < 30) {
        await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.headers['retry-after'] ?? 1))));
        continue;
      }
      if (res.statusCode >= 400) {
        throw new ApiError(res.statusCode, parsed?.code ?? 'INTERNAL', `demo seed: ${method} ${url.split('?')[0]} answered ${res.statusCode}: ${parsed?.message ?? res.body}`, parsed?.details);
      }
      return parsed as T;
    }
  };
  try {
    // Refuse a workspace seeded already: the plan's first item's card, with a DEMO- sku.
    const first = plan.items[0];
    const existing = await call<{ data: Array<{ id: string; sku: string | null }> }>(
      'GET',
      `/api/v1/inventory?limit=100&cardName=${encodeURIComponent(first.card.name)}&setName=${encodeURIComponent(first.card.setName)}`,
    );
    const seeded = existing.data.find((i) => i.sku?.startsWith(SKU_PREFIX));
    if (seeded) {
      throw new ApiError(
        409,
        'CONFLICT',
        `Workspace "${options.slug}" has demo data already (inventory item ${seeded.id}, sku ${seeded.sku}): the seed refuses to add it twice. Seed a fresh workspace instead.`,
        { inventoryItemId: seeded.id, sku: seeded.sku },
      );
    }

    const accepted = plan.offers.filter((o) => o.answer === 'accept');
    const moves = accepted.reduce((n, o) => n + TRADE_PATH.indexOf(o.stage as (typeof TRADE_PATH)[number]) + 1, 0);
    const archived = plan.requests.filter((r) => r.kind === 'archived').length;
    const progress = new Progress(plan.items.length + plan.requests.length + archived + plan.offers.length * 2 + moves);
    const write = async <T>(work: () => Promise<T>): Promise<T> => {
      const out = await work();
      writes++;
      progress.tick();
      return out;
    };

    // 1. Stock.
    progress.start('items');
    const itemIds: string[] = [];
    for (const item of plan.items) {
      const created = await write(() =>
        call<{ id: string }>('POST', '/api/v1/inventory', {
          cardName: item.card.name,
          setName: item.card.setName,
          condition: item.condition,
          price: item.priceMinor / 100,
          currency: 'USD',
          quantity: item.quantity,
          sku: item.sku,
          cardNumber: item.card.number,
          notes: NOTES,
        }),
      );
      itemIds.push(created.id);
    }
    await runner.catchUp();
    progress.end();

    // 2. Demand (matched against the stock as it is created).
    progress.start('requests');
    const requestIds: string[] = [];
    let matchedAtCreation = 0;
    for (const r of plan.requests) {
      const created = await write(() =>
        call<{ id: string; matchCount: number }>('POST', '/api/v1/buyer-requests', {
          cardName: r.card.name,
          setName: r.card.setName,
          condition: r.condition,
          maxPrice: r.maxPriceMinor / 100,
          currency: 'USD',
          source: SOURCE,
          buyer: { displayName: r.buyer },
        }),
      );
      requestIds.push(created.id);
      if (created.matchCount > 0) matchedAtCreation++;
    }
    await runner.catchUp();
    progress.end();

    progress.start('archive');
    for (const [i, r] of plan.requests.entries()) {
      if (r.kind !== 'archived') continue;
      await write(() => bus.execute(new ArchiveBuyerRequestCommand(workspace.id, key.id, requestIds[i], 'demo: nothing in stock for it')));
    }
    await runner.catchUp();
    progress.end();

    // 3. Offers from buyers, then the seller's answers (an accept opens the trade).
    progress.start('offers');
    const offerIds: string[] = [];
    for (const o of plan.offers) {
      const made = await write(() =>
        bus.execute(
          new MakeOfferCommand(workspace.id, key.id, {
            inventoryItemId: itemIds[o.item],
            buyerRequestId: o.request === null ? null : requestIds[o.request],
            matchId: null,
            amountMinor: o.amountMinor,
            currency: 'USD',
            quantity: 1,
            from: 'buyer',
            message: 'Demo offer',
          }),
        ),
      );
      offerIds.push(made.id);
    }
    await runner.catchUp();
    progress.end();

    progress.start('answers');
    const trades: Array<{ id: string; stage: TradeStage }> = [];
    for (const [i, o] of plan.offers.entries()) {
      if (o.answer === 'pending') {
        progress.tick();
        continue;
      }
      const answered = await write(() =>
        bus.execute(
          new AnswerOfferCommand(
            workspace.id,
            key.id,
            offerIds[i],
            o.answer === 'accept' ? { type: 'accept', party: 'seller' } : { type: 'reject', party: 'seller', reason: 'demo: too low' },
          ),
        ),
      );
      if (o.answer === 'accept' && answered.tradeId) trades.push({ id: answered.tradeId, stage: o.stage ?? 'initiated' });
    }
    await runner.catchUp();
    progress.end();

    // 4. The trades, each taken along the path to its stage, one step for all at a time.
    progress.start('trades');
    for (const [step, to] of TRADE_PATH.entries()) {
      for (const [n, trade] of trades.entries()) {
        if (TRADE_PATH.indexOf(trade.stage as (typeof TRADE_PATH)[number]) < step) continue;
        const extra =
          to === 'paid'
            ? { reference: `DEMO-PAY-${String(n + 1).padStart(4, '0')}` }
            : to === 'shipped'
              ? { carrier: 'USPS', trackingNumber: `DEMO ${String(9400100000 + n)}` }
              : {};
        await write(() => call('POST', `/api/v1/trades/${trade.id}/transitions`, { to, ...extra }));
      }
    }
    await runner.catchUp();
    progress.end();
    progress.finish();

    const byStatus: Record<string, number> = {};
    for (const t of trades) byStatus[t.stage] = (byStatus[t.stage] ?? 0) + 1;
    const count = (kind: PlannedRequest['kind']) => plan.requests.filter((r) => r.kind === kind).length;
    const answers = (answer: PlannedOffer['answer']) => plan.offers.filter((o) => o.answer === answer).length;
    return {
      workspace: { id: workspace.id, slug: workspace.slug },
      scale: plan.scale,
      seed: DEMO_SEED,
      fingerprint: planFingerprint(plan),
      clock: CLOCK_NOTE,
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
        },
        offers: { total: plan.offers.length, accepted: answers('accept'), rejected: answers('reject'), pending: answers('pending') },
        trades: { total: trades.length, byStatus },
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
      seedKey: { id: key.id, revoked: true },
      tookMs: Date.now() - started,
    };
  } finally {
    // The seed key never outlives the run (its secret was never shown).
    await call('DELETE', `/api/v1/api-keys/${key.id}`).catch(() => undefined);
    await runner.catchUp().catch(() => undefined);
    await api.close();
  }
}
