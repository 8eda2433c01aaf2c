// The lot and reserve read models, given the lot's events: the lot's document follows every event
// (idempotent by revision), a reserve's is written once from its reserve.placed, and what a reserve
// becomes later (outbid, won, the hold it got) is read off its lot's document.
import type { RecordedEvent } from '@app/platform';
import { evolveDocument } from '@app/platform';

import type { LotEvent } from './lot.events';
import { type LotDoc, lotProjection, type ReserveDoc, reserveProjection } from './lot.projection';
import { toReserveResponse } from './lot.schemas';

const at = '2026-11-24T20:00:00.000Z';
const later = '2026-11-24T20:05:00.000Z';
const terms = { lotId: 'lot_1', sessionId: 'ls_1', inventoryItemId: 'inv_1', cardName: 'Charizard', setName: 'Base Set', quantity: 1, startingPriceMinor: 10000, incrementMinor: 500, currency: 'USD' };
const placed = (reserveId: string, amountMinor: number, sequence: number): LotEvent => ({
  type: 'reserve.placed',
  data: { reserveId, lotId: 'lot_1', sessionId: 'ls_1', amountMinor, currency: 'USD', buyerSealed: `sb1.${reserveId}`, buyerRequestId: null, sequence, standing: 'leading', quantity: 1, placedAt: at },
});
const history: LotEvent[] = [
  { type: 'lot.added', data: { ...terms, addedAt: at } },
  { type: 'lot.opened', data: { lotId: 'lot_1', sessionId: 'ls_1', openedAt: at } },
  placed('rsv_a', 10000, 1),
  placed('rsv_b', 10500, 2),
  { type: 'lot.closed', data: { lotId: 'lot_1', sessionId: 'ls_1', winners: [{ reserveId: 'rsv_b', amountMinor: 10500, quantity: 1 }], unsold: 0, closedAt: later } },
  { type: 'lot.settled', data: { lotId: 'lot_1', sessionId: 'ls_1', awards: [{ reserveId: 'rsv_b', holdId: 'hld_b', tradeId: null }], settledAt: later } },
];

/** The lot's events as the log records them: revisions 0, 1, 2…, positions from 100. */
const recorded = (events: readonly LotEvent[]): RecordedEvent[] =>
  events.map((e, revision) => ({
    id: `evt_${revision}`,
    type: e.type,
    data: e.data as unknown as Record<string, unknown>,
    metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
    streamId: 'lot-lot_1',
    revision,
    position: 100 + revision,
    createdAt: at,
  }));

function lotAfter(events: readonly RecordedEvent[]): LotDoc | null {
  return events.reduce<LotDoc | null>((doc, e) => evolveDocument(lotProjection.evolve, doc, e, lotProjection.documentId(e)), null);
}

function reservesAfter(events: readonly RecordedEvent[]): Map<string, ReserveDoc> {
  const docs = new Map<string, ReserveDoc>();
  for (const e of events.filter((x) => reserveProjection.eventTypes.includes(x.type))) {
    const id = reserveProjection.documentId(e);
    const next = evolveDocument(reserveProjection.evolve, docs.get(id) ?? null, e, id);
    if (next) docs.set(id, next);
  }
  return docs;
}

describe('lot projection', () => {
  it('keeps the lot as its events leave it, with the position of its last one', () => {
    expect(lotAfter(recorded(history.slice(0, 4)))).toMatchObject({
      id: 'lot_1',
      revision: 3,
      position: 103,
      workspaceId: 'ws_1',
      status: 'open',
      reserveCount: 2,
      bestReserveId: 'rsv_b',
      bestAmountMinor: 10500,
      winners: [],
      settled: false,
    });
    expect(lotAfter(recorded(history))).toMatchObject({
      status: 'closed',
      position: 105,
      winners: [{ reserveId: 'rsv_b', amountMinor: 10500, quantity: 1, holdId: 'hld_b', tradeId: null }],
      unsold: 0,
      settled: true,
      closedAt: later,
      updatedAt: later,
    });
  });

  it('applied twice is applied once (an event the document reflects changes nothing)', () => {
    const events = recorded(history);
    const once = lotAfter(events);
    expect(lotAfter([...events, ...events])).toEqual(once);
    expect(lotAfter([...events.slice(0, 3), events[2], events[1], ...events.slice(3)])).toEqual(once);
  });

  it('makes nothing of events before the lot was added', () => {
    expect(lotAfter(recorded(history).slice(1))).toBeNull();
  });
});

describe('reserve projection', () => {
  it('writes each reserve once, from its reserve.placed, under the reserve id', () => {
    const reserves = reservesAfter(recorded(history));
    expect([...reserves.keys()]).toEqual(['rsv_a', 'rsv_b']);
    expect(reserves.get('rsv_a')).toEqual({
      id: 'rsv_a',
      revision: 2,
      workspaceId: 'ws_1',
      sessionId: 'ls_1',
      lotId: 'lot_1',
      sequence: 1,
      amountMinor: 10000,
      currency: 'USD',
      buyerSealed: 'sb1.rsv_a',
      buyerRequestId: null,
      standing: 'leading',
      quantity: 1,
      createdAt: at,
    });
    const events = recorded(history);
    expect(reservesAfter([...events, ...events])).toEqual(reserves);
  });

  it('answers a reserve with what its lot says of it since: outbid, then won with its hold', () => {
    const events = recorded(history);
    const reserves = reservesAfter(events);
    const answer = (id: string, upTo: number) => {
      const lot = lotAfter(events.slice(0, upTo));
      if (!lot) throw new Error('no lot');
      const { standing, holdId } = toReserveResponse(reserves.get(id) as ReserveDoc, lot, null);
      return [standing, holdId];
    };
    expect(answer('rsv_a', 3)).toEqual(['leading', null]);
    expect(answer('rsv_a', 4)).toEqual(['outbid', null]);
    expect(answer('rsv_b', 4)).toEqual(['leading', null]);
    expect(answer('rsv_b', 5)).toEqual(['won', null]);
    expect(answer('rsv_b', 6)).toEqual(['won', 'hld_b']);
    expect(answer('rsv_a', 6)).toEqual(['outbid', null]);
  });
});
