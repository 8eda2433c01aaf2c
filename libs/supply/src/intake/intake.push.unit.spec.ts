import { decodeTime, isValid } from 'ulid';

import { fold } from '@app/platform/domain';

import { type ExistingSession, intakeDecider } from './intake.decider';
import type { IngestionEvent, RawRow } from './intake.events';
import { inventoryEventIdFor, inventoryItemIdFor, planPush } from './intake.push';
import { normalizeRow } from './intake.rows';

const addedAt = '2026-03-01T10:00:00.000Z';
const now = new Date('2026-03-01T10:05:00.000Z');

function session(raws: RawRow[]): ExistingSession {
  const events: IngestionEvent[] = [
    {
      type: 'ingestion.session_created',
      data: { sessionId: 'ing_1', workspaceId: 'ws_1', name: null, source: null, defaultCurrency: 'USD', createdAt: addedAt },
    },
    {
      type: 'ingestion.rows_added',
      data: { sessionId: 'ing_1', addedAt, rows: raws.map((raw, i) => ({ ...normalizeRow(raw, { defaultCurrency: 'USD' }), row: i + 1 })) },
    },
  ];
  const state = fold(intakeDecider, events);
  if (state.status === 'none') throw new Error('no session');
  return state;
}

describe('intake push ids', () => {
  it('makes a ULID item id from the add time, stable for (session, row)', () => {
    const id = inventoryItemIdFor('ing_1', 7, addedAt);
    expect(id).toMatch(/^inv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isValid(id.slice(4))).toBe(true);
    expect(decodeTime(id.slice(4))).toBe(Date.parse(addedAt));
    expect(inventoryItemIdFor('ing_1', 7, addedAt)).toBe(id);
    expect(inventoryItemIdFor('ing_2', 7, addedAt)).not.toBe(id);
  });

  it('sorts the items of one add in row order', () => {
    const ids = [1, 2, 31, 32, 1000, 99_999].map((row) => inventoryItemIdFor('ing_1', row, addedAt));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes uuid event ids, stable and distinct', () => {
    const id = inventoryEventIdFor('ing_1', 7);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(inventoryEventIdFor('ing_1', 7)).toBe(id);
    expect(inventoryEventIdFor('ing_1', 8)).not.toBe(id);
    expect(inventoryEventIdFor('ing_1', 7, 1)).not.toBe(id);
  });
});

describe('intake push plan', () => {
  const base = { cardName: 'Charizard', setName: 'Base', condition: 'NM', price: '$450.50' };

  it('pushes valid and warning rows through the inventory decider and skips rows with errors', () => {
    const plan = planPush(session([base, { ...base, price: 'free' }, { ...base, setName: 'Jungel', sku: 'S-1' }]), now);
    expect(plan.items.map((i) => i.row)).toEqual([1, 3]);
    expect(plan.skippedRows).toEqual([2]);
    expect(plan.rejections).toEqual([]);
    const [first] = plan.items;
    expect(first.inventoryItemId).toBe(inventoryItemIdFor('ing_1', 1, addedAt));
    expect(first.events).toEqual([
      {
        id: inventoryEventIdFor('ing_1', 1),
        type: 'inventory.created',
        data: {
          inventoryItemId: first.inventoryItemId,
          cardName: 'Charizard',
          setName: 'Base',
          condition: 'Near Mint',
          priceMinor: 45050,
          currency: 'USD',
          quantity: 1,
          status: 'available',
          sku: null,
          cardNumber: null,
          notes: null,
          match: expect.objectContaining({ matchKey: 'base1|charizard' }),
          input: { cardName: 'Charizard', setName: 'Base', condition: 'NM' },
          ingestion: { sessionId: 'ing_1', row: 1 },
          createdAt: now.toISOString(),
        },
      },
    ]);
    expect(plan.items[1].events[0].data).toMatchObject({ setName: 'Jungel', sku: 'S-1' });
  });

  it('plans the same ids again (a retried push appends the same events)', () => {
    const s = session([base, base]);
    const ids = (p: ReturnType<typeof planPush>) => p.items.flatMap((i) => [i.inventoryItemId, ...i.events.map((e) => e.id)]);
    expect(ids(planPush(s, new Date()))).toEqual(ids(planPush(s, now)));
  });
});
