// `demo seed --workspace <slug> [--scale <n>]`: fills an existing workspace with demo data made from
// the project's real card data (libs/catalog/data: cards.csv, sets.csv), deterministically — the
// same scale (and dispute window) always plans the same sets, cards, conditions, prices,
// quantities, requests, offers, trade stages and times (mulberry32 from a fixed seed; a card's
// base price from its id, whatever the scale; every time an offset from the run's start, see
// "When").
//
// What it writes and when: the plan (demo-plan.ts). This file is the run: it writes the plan's
// steps in time order through a context whose clock it moves (demo-clock.ts).
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
import { relative } from 'node:path';

import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';

import { WorkspaceDirectory } from '@app/access';
import { ArchiveBuyerRequestCommand, CreateBuyerRequestCommand } from '@app/demand';
import { APP_CONFIG, type AppConfig, ApiError, ProjectionRunner } from '@app/platform';
import { CreateInventoryItemCommand, ListInventoryItemsQuery } from '@app/supply';
import { AnswerOfferCommand, MakeOfferCommand, MoveTradeCommand } from '@app/trading';

import { CliModule } from './cli.module';
import { loadCatalogue } from './demo-catalogue';
import { DAY, HISTORY_DAYS, SimulatedClock } from './demo-clock';
import { requireValid } from './demo-inputs';
import { DEMO_SEED, maxScale, planDemo, SETS_PER_SCALE, SKU_PREFIX } from './demo-plan';
import type { PlannedOffer, PlannedRequest } from './demo-plan-types';
import { demoTimeline, planFingerprint } from './demo-timeline';
import { PhaseProgress } from './progress';

export { MAX_SCALE } from './demo-plan';

const NOTES = 'Demo data (npm run cli -- demo seed)';
const SOURCE = 'demo-seed';
/** Who the events say wrote them: the CLI, as for its other commands. */
const ACTOR = 'cli';
const CURRENCY = 'USD';
/** The validity of the offers the seed answers (their own `expiresAt`): past the real now for all of them. */
export const ANSWERED_OFFER_VALIDITY_DAYS = 60;

export const CLOCK_NOTE =
  'Simulated: the seed\'s context read time from a clock it moved forward through the plan, from 42 days before the run to ' +
  'the final day, never backwards and never past the real now — so the business times in the events (listed, requested, ' +
  'offered, answered, paid, shipped, delivered, completed, settled) span six weeks. Each event was still written by its ' +
  'context\'s own handler; the log\'s own append times are real (this run). No timer was left due: answered offers ran ' +
  `${ANSWERED_OFFER_VALIDITY_DAYS} days, trades were delivered within the dispute window, what is pending was made in the final day.`;

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
    const progress = new PhaseProgress(steps.length);
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
