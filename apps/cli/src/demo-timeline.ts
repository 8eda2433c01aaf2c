// The plan's timeline: the rules its times obey (checked when it is made: a plan that breaks them
// is a bug), its writes in time order, and a fingerprint of all it says.
import { createHash } from 'node:crypto';

import { DAY, FINAL_DAY_FROM_MS, HISTORY_DAYS } from './demo-clock';
import type { DemoPlan, TradeMoveTo } from './demo-plan-types';

/**
 * The plan's times obey what the run relies on, or the plan is a bug: everything within the
 * history and before the run; a set's demand after all its stock; each offer after its item and
 * its request, each step of it after the one before; deliveries within the delivery span (their
 * completion timers due after the run); what is left pending made in the final day.
 */
export function checkPlan(plan: DemoPlan): void {
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
