// Settled trades for the log seeder (bench/seed/seed-log.mjs, a workspace's `trades`): each one
// the events the app's trading handlers append for a trade opened on an item and moved through
// paid → shipped → delivered → completed → settled — decided by the app's own code, not written
// by hand. Each step runs the built write path exactly as the handlers call it:
//
//   open   (CreateTradeHandler): handleCommands(log, metadata, (tx) => openTrade(tx, terms))
//          → inventory-<item>: inventory.reserved; trade-<id>: trade.initiated (one append, the item first)
//   move   (MoveTradeHandler):   handleCommands(log, metadata, (tx) => decideOnTrade(tx, ws, id, MoveTrade, now))
//          paid      → trade.paid, trade.status_changed
//          shipped   → trade.shipped, trade.status_changed
//          delivered → trade.status_changed
//          completed → trade.completed, trade.status_changed; inventory-<item>: inventory.sold (one append)
//          settled   → trade.status_changed
//
// The `log` under handleCommands is an in-memory EventLog (below): it serves the streams the
// trades touch (the item's stream as the seeder created it, and the trade's) and collects what the
// transactions append as StreamWrites (same streams, events, order and expected revisions) for the
// seeder's next `appendMany` on the real SqliteEventStore. Event ids are replaced by UUIDv7s made
// from the event's time and a seeded PRNG (the app makes v7s from the clock and crypto randomness),
// so the same plan appends the same log.
//
// Which items, and when (deterministic from the workspace's seed, with a PRNG of its own so the
// items and requests drawn are those of a plan without trades):
// - `trades` of the workspace's `items`, chosen by selection sampling in creation order (each item
//   with probability tradesLeft / itemsLeft: exactly `trades`, spread like the listings), at most one
//   trade per item; 1 unit, or (25 % of items with several) all of them — then the item is sold out;
// - opened an exponential delay after the listing (mean 7 days), then paid 0.2-24 h later, shipped
//   2-72 h, delivered 1-5 days, completed by the buyer 1-72 h (inside the default 3-day dispute
//   window), settled 1-48 h; a lifecycle that would not end before `end` (the seed's now) is
//   compressed to end at 95 % of the time left, so every trade is settled by then;
// - a payment reference with 70 % of the `paid` moves, carrier + tracking number with 90 % of the
//   `shipped`, a payout reference with 40 % of the `settled`.
// The steps of all workspaces' trades are kept in one queue by time: the seeder appends each step
// before the first creation dated after it, so the log stays in time order.
import { prng } from './random.mjs';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MOVES = ['paid', 'shipped', 'delivered', 'completed', 'settled'];
/** Each move's delay after the previous step, [min, max] in ms (uniform). */
const STEP_DELAY = {
  paid: [0.2 * HOUR, 24 * HOUR],
  shipped: [2 * HOUR, 72 * HOUR],
  delivered: [1 * DAY, 5 * DAY],
  completed: [1 * HOUR, 72 * HOUR],
  settled: [1 * HOUR, 48 * HOUR],
};
const OPEN_MEAN_DELAY = 7 * DAY;
const CARRIERS = ['USPS', 'UPS', 'FedEx', 'DHL', 'Royal Mail', 'La Poste'];
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const token = (rnd, n) => Array.from({ length: n }, () => B62[Math.floor(rnd() * 62)]).join('');
const digits = (rnd, n) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');

/** A UUIDv7 (48 bits of ms, version 7, variant 10) from a PRNG: what the app's uuidv7 makes, reproducibly. */
function uuidv7From(rnd, ms) {
  const bytes = new Uint8Array(16);
  for (let i = 6; i < 16; i += 1) bytes[i] = Math.floor(rnd() * 256);
  let t = Math.max(0, Math.floor(ms));
  for (let i = 5; i >= 0; i -= 1) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const h = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Min-heap of steps by time (then by the order they were scheduled). */
class StepQueue {
  constructor() {
    this.heap = [];
    this.seq = 0;
  }

  get size() {
    return this.heap.length;
  }

  peekTime() {
    return this.heap.length ? this.heap[0].t : Infinity;
  }

  push(t, value) {
    const h = this.heap;
    h.push({ t, s: (this.seq += 1), value });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (less(h[p], h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  pop() {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l], h[m])) m = l;
        if (r < h.length && less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
}
const less = (a, b) => a.t < b.t || (a.t === b.t && a.s < b.s);

/**
 * The EventLog handleCommands writes through: streams served from memory, appends collected as
 * StreamWrites into `out` (what the seeder hands to SqliteEventStore.appendMany next).
 */
class CollectingLog {
  constructor(rnd, WrongExpectedRevisionError) {
    this.rnd = rnd;
    this.streams = new Map();
    this.out = null;
    this.at = 0;
    this.Wrong = WrongExpectedRevisionError;
  }

  /** Makes a stream the seeder appended known (its stored events, as the store would read them back). */
  remember(streamId, newEvents, createdAt) {
    const recorded = newEvents.map((e, revision) => ({
      id: e.id,
      type: e.type,
      data: JSON.parse(JSON.stringify(e.data)),
      metadata: JSON.parse(JSON.stringify(e.metadata)),
      streamId,
      revision,
      position: 0,
      createdAt,
    }));
    this.streams.set(streamId, recorded);
  }

  forget(streamId) {
    this.streams.delete(streamId);
  }

  async readStream(streamId) {
    return this.streams.get(streamId) ?? [];
  }

  async append(streamId, events, options) {
    const [result] = await this.appendMany([{ streamId, events, expectedRevision: options.expectedRevision }]);
    return result;
  }

  async appendMany(writes) {
    const createdAt = new Date(this.at).toISOString();
    return writes.map(({ streamId, events, expectedRevision }) => {
      const recorded = this.streams.get(streamId) ?? [];
      const actual = recorded.length === 0 ? 'no_stream' : recorded.length - 1;
      if (expectedRevision !== actual) throw new this.Wrong(streamId, expectedRevision, actual);
      const stored = events.map((e) => ({ id: uuidv7From(this.rnd, this.at), type: e.type, data: e.data, metadata: e.metadata }));
      this.out.push({ streamId, expectedRevision, events: stored });
      for (const e of stored) {
        recorded.push({ ...e, data: JSON.parse(JSON.stringify(e.data)), metadata: JSON.parse(JSON.stringify(e.metadata)), streamId, revision: recorded.length, position: 0, createdAt });
      }
      this.streams.set(streamId, recorded);
      return { nextRevision: recorded.length - 1, position: 0 };
    });
  }
}

/**
 * The trades of a seeding run. `require`/`dist` load the build's modules; `end` (ms) is the seed's
 * now, before which every trade is settled; `seed` makes the event ids.
 */
export function createTradeSeeder({ dist, require, end, seed = 1 }) {
  const { handleCommands } = dist('libs/platform/src/domain/index.js');
  const { WrongExpectedRevisionError } = dist('libs/platform/src/event-store/event-store.port.js');
  const { openTrade } = dist('libs/trading/src/trade/trade.open.js');
  const { decideOnTrade } = dist('libs/trading/src/trade/trade.handlers.js');
  const { tradeStream } = dist('libs/trading/src/trade/trade.events.js');
  const { monotonicFactory } = require('ulid');

  const log = new CollectingLog(prng(seed ^ 0x7e1d), WrongExpectedRevisionError);
  const queue = new StepQueue();
  const stats = { trades: 0, settled: 0, units: 0, soldOut: 0, appends: 0, events: {}, byWorkspace: {}, firstOpenedAt: null, lastSettledAt: null };

  /** The workspace's picker: `offer` each item as it is created; some become trades. */
  function workspace(ws, metadata) {
    let tradesLeft = ws.trades ?? 0;
    let itemsLeft = ws.items;
    const rnd = prng((ws.seed ^ 0x7ade) >>> 0);
    const ulid = monotonicFactory(prng((ws.seed ^ 0x1d5) >>> 0));
    let lastIdTime = 0;
    return {
      /** An item just created (its stream id, the events appended, its creation time in ms). */
      offer({ inventoryItemId, streamId, events, createdAtMs, quantity }) {
        if (itemsLeft <= 0) return;
        const chosen = tradesLeft > 0 && rnd() * itemsLeft < tradesLeft;
        itemsLeft -= 1;
        if (!chosen) return;
        tradesLeft -= 1;
        const left = Math.max(0, end - createdAtMs);
        const open = Math.min(-Math.log(1 - rnd()) * OPEN_MEAN_DELAY, 0.5 * left);
        const delays = MOVES.map((m) => STEP_DELAY[m][0] + rnd() * (STEP_DELAY[m][1] - STEP_DELAY[m][0]));
        const total = open + delays.reduce((a, b) => a + b, 0);
        const f = total > 0.95 * left ? (0.95 * left) / total : 1;
        const times = [createdAtMs + open * f];
        for (const d of delays) times.push(times[times.length - 1] + d * f);
        const units = quantity > 1 && rnd() < 0.25 ? quantity : 1;
        const details = {
          paid: rnd() < 0.7 ? { reference: `pi_${token(rnd, 24)}` } : {},
          shipped: rnd() < 0.9 ? { carrier: CARRIERS[Math.floor(rnd() * CARRIERS.length)], trackingNumber: digits(rnd, 22) } : {},
          delivered: {},
          completed: {},
          settled: rnd() < 0.4 ? { reference: `po_${token(rnd, 24)}` } : {},
        };
        // The id the IdGenerator would give at the open (a ULID of that time; monotonic like the app's).
        const openMs = Math.round(times[0]);
        lastIdTime = Math.max(lastIdTime, openMs);
        const tradeId = `trd_${ulid(lastIdTime)}`;
        log.remember(streamId, events, new Date(createdAtMs).toISOString());
        queue.push(times[0], { ws, metadata, tradeId, inventoryItemId, itemStream: streamId, units, times, details, step: 0 });
        stats.trades += 1;
      },
    };
  }

  /** Runs one step through the app's write path; its StreamWrites are pushed onto `writes`. */
  async function run(trade, t, writes) {
    const now = new Date(Math.round(t));
    const workspaceId = trade.ws.workspaceId;
    log.out = writes;
    log.at = now.getTime();
    const before = writes.length;
    if (trade.step === 0) {
      await handleCommands(log, trade.metadata, (tx) =>
        openTrade(tx, {
          workspaceId,
          tradeId: trade.tradeId,
          inventoryItemId: trade.inventoryItemId,
          buyerRequestId: null,
          matchId: null,
          offerId: null,
          quantity: trade.units,
          amountMinor: undefined,
          currency: undefined,
          now,
        }),
      );
      stats.units += trade.units;
      const w = (stats.byWorkspace[workspaceId] ??= { trades: 0, units: 0 });
      w.trades += 1;
      w.units += trade.units;
      stats.firstOpenedAt ??= now.toISOString();
    } else {
      const to = MOVES[trade.step - 1];
      const move = { to, ...trade.details[to] };
      const after = await handleCommands(log, trade.metadata, (tx) => decideOnTrade(tx, workspaceId, trade.tradeId, { type: 'MoveTrade', tradeId: trade.tradeId, ...move, now }, now));
      if (after.value?.status !== to) throw new Error(`trade ${trade.tradeId}: moved to ${to}, the decider says ${after.value?.status}`);
    }
    log.out = null;
    if (writes.length === before) throw new Error(`trade ${trade.tradeId}: step ${trade.step} appended nothing`);
    stats.appends += 1;
    for (const w of writes.slice(before)) for (const e of w.events) stats.events[e.type] = (stats.events[e.type] ?? 0) + 1;
    trade.step += 1;
    if (trade.step <= MOVES.length) {
      queue.push(trade.times[trade.step], trade);
      return;
    }
    // Settled: nothing more happens on the trade or (one trade per item) its item.
    const sold = log.streams.get(trade.itemStream)?.at(-1);
    if (sold?.type === 'inventory.sold' && sold.data.status === 'sold') stats.soldOut += 1;
    log.forget(trade.itemStream);
    log.forget(tradeStream(trade.tradeId));
    stats.settled += 1;
    stats.lastSettledAt = now.toISOString();
  }

  return {
    workspace,
    /** Steps waiting. */
    get pending() {
      return queue.size;
    },
    /** Time (ms) of the next step; Infinity when none. */
    nextTime: () => queue.peekTime(),
    /** Runs every step due at or before `ms` (in time order), pushing their writes onto `writes`. */
    async runDue(ms, writes) {
      while (queue.size > 0 && queue.peekTime() <= ms) {
        const { t, value } = queue.pop();
        await run(value, t, writes);
      }
    },
    /** Runs the next step; returns its time. */
    async runNext(writes) {
      const { t, value } = queue.pop();
      await run(value, t, writes);
      return t;
    },
    summary: () => ({ ...stats, openSteps: queue.size, tradeStreamsInMemory: log.streams.size }),
  };
}
