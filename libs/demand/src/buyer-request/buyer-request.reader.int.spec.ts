// The reader port's batched lookup (reverse matching asks it for thousands of pushed items at once)
// answers, item by item, exactly what the one-item query answers: the same requests in the same
// order, across workspaces, currencies, condition classes, statuses, price and condition bounds,
// the per-item limit, and when a query would return too many rows (asked item by item instead).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ANY_CONDITION_CLASS, ANY_SET_KEY } from '@app/catalog';
import { SqliteCollection } from '@app/platform/read-store/sqlite-collection';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import type { BuyerRequestStatus, OfferedItem } from './buyer-request-reader.port';
import { BUYER_REQUESTS, type BuyerRequestDoc, priceCeilingOf } from './buyer-request.projection';
import { BuyerRequestReadModel } from './buyer-request.queries';

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORKSPACES = ['ws_a', 'ws_b'];
const CURRENCIES = ['USD', 'EUR'];
const CLASSES = ['raw', 'graded'];
const STATUSES: BuyerRequestStatus[] = ['open', 'open', 'matched', 'archived'];
const CARDS = Array.from({ length: 12 }, (_, i) => `base|card-${i}`);

describe('BuyerRequestReadModel.activeRequestsForMany (SQLite)', () => {
  let dir: string;
  let reads: SqliteReadStore;
  let reader: BuyerRequestReadModel;
  let items: OfferedItem[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'br-reader-'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
    reader = new BuyerRequestReadModel(reads);
    const next = random(20);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
    const requests = reads.collection<BuyerRequestDoc>(BUYER_REQUESTS);
    await reads.transaction(async () => {
      for (let i = 0; i < 600; i += 1) {
        const [setOfCard, cardKey] = pick(CARDS).split('|');
        // Open fields now and then: any printing, any condition, no price limit.
        const anySet = next() < 0.15;
        const anyCondition = next() < 0.15;
        const maxPriceMinor = next() < 0.15 ? null : 1_000 + Math.floor(next() * 10) * 500;
        const setKey = anySet ? ANY_SET_KEY : setOfCard;
        const matchKey = `${setKey}|${cardKey}`;
        await requests.put({
          // Ids not in insertion order: the answer's order is the ids'.
          id: `br_${String(Math.floor(next() * 1e9)).padStart(9, '0')}_${i}`,
          revision: 0,
          workspaceId: pick(WORKSPACES),
          status: pick(STATUSES),
          cardName: cardKey,
          setName: anySet ? null : setKey,
          condition: anyCondition ? null : 'NM',
          maxPriceMinor,
          priceCeilingMinor: priceCeilingOf(maxPriceMinor),
          currency: pick(CURRENCIES),
          source: null,
          cardKey,
          setKey,
          matchKey,
          conditionClass: anyCondition ? ANY_CONDITION_CLASS : pick(CLASSES),
          conditionScore: anyCondition ? 0 : Math.floor(next() * 6),
          gradingCompany: null,
          matchedItemIds: [],
          buyerSealed: null,
          matchCount: 0,
          createdAt: '2026-11-25T00:00:00.000Z',
          updatedAt: '2026-11-25T00:00:00.000Z',
          archivedAt: null,
        });
      }
    });
    items = Array.from({ length: 150 }, () => {
      // A card nobody asks for, now and then.
      const matchKey = next() < 0.1 ? 'base|nobody' : pick(CARDS);
      return {
      workspaceId: pick(WORKSPACES),
      cardKey: matchKey.split('|')[1],
      matchKey,
      currency: pick(CURRENCIES),
      conditionClass: pick(CLASSES),
      conditionScore: Math.floor(next() * 6),
      priceMinor: 500 + Math.floor(next() * 12) * 500,
      };
    });
  });

  afterAll(async () => {
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = (lists: ReadonlyArray<ReadonlyArray<{ id: string }>>) => lists.map((list) => list.map((r) => r.id));

  it.each([
    ['every request (limit 1000)', 1000, undefined],
    ['the first two by id (limit 2)', 2, undefined],
    ['item by item when a query would return more rows than allowed', 1000, 5],
  ])('answers each item as its own query does: %s', async (_name, limit, rowsPerQuery) => {
    const one = await Promise.all(items.map((item) => reader.activeRequestsFor(item, limit)));
    const many = await reader.activeRequestsForMany(items, limit, rowsPerQuery);
    expect(ids(many)).toEqual(ids(one));
    // Not vacuous: most items meet some request, some meet none, none meets an archived one.
    expect(one.filter((list) => list.length > 0).length).toBeGreaterThan(items.length / 3);
    expect(one.some((list) => list.length === 0)).toBe(true);
    expect(one.flat().every((r) => r.status !== 'archived')).toBe(true);
    if (limit === 2) expect(one.some((list) => list.length === 2)).toBe(true);
    // Open requests are found by the same index: any printing, any condition, no price limit.
    const found = one.flat();
    expect(found.some((r) => r.setName === null)).toBe(true);
    expect(found.some((r) => r.condition === null)).toBe(true);
    expect(found.some((r) => r.maxPriceMinor === null)).toBe(true);
  });

  it('answers nothing for no items', async () => {
    expect(await reader.activeRequestsForMany([], 10)).toEqual([]);
  });

  it('finds the open requests an item meets by the by_match index (two IN lists and the price range), never a scan', () => {
    const collection = reads.collection<BuyerRequestDoc>(BUYER_REQUESTS);
    if (!(collection instanceof SqliteCollection)) throw new Error('expected a SqliteCollection');
    const query = collection
      .explain({
        workspaceId: 'ws_a',
        matchKey: { $in: ['base|card-1', '*|card-1'] },
        currency: 'USD',
        conditionClass: { $in: ['raw', ANY_CONDITION_CLASS] },
        status: { $in: ['open', 'matched'] },
        priceCeilingMinor: { $gte: 1500 },
        conditionScore: { $lte: 4 },
      })
      .join('\n');
    expect(query).toContain('USING INDEX c_buyer_requests__by_match');
    expect(query).not.toMatch(/SCAN c_buyer_requests/);
  });
});
