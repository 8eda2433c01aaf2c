import { automationAction, type Condition, meets, meetsConditions } from './automation.actions';

const data = { amount: 380, from: 'buyer', status: 'pending', expires_at: '2026-11-26T12:00:00.000Z', match_ids: ['mt_1', 'mt_2'], buyer_request_id: null };
const c = (field: string, op: Condition['op'], value: Condition['value']): Condition => ({ field, op, value });

describe('automation conditions', () => {
  it('eq / ne compare exactly (type included)', () => {
    expect(meets(data, c('from', 'eq', 'buyer'))).toBe(true);
    expect(meets(data, c('amount', 'eq', '380'))).toBe(false);
    expect(meets(data, c('buyer_request_id', 'eq', null))).toBe(true);
    expect(meets(data, c('from', 'ne', 'seller'))).toBe(true);
    expect(meets(data, c('from', 'ne', 'buyer'))).toBe(false);
  });

  it('gt / gte / lt / lte compare numbers with numbers and strings with strings, nothing else', () => {
    expect(meets(data, c('amount', 'gt', 379.99))).toBe(true);
    expect(meets(data, c('amount', 'gt', 380))).toBe(false);
    expect(meets(data, c('amount', 'gte', 380))).toBe(true);
    expect(meets(data, c('amount', 'lt', 380))).toBe(false);
    expect(meets(data, c('amount', 'lte', 380))).toBe(true);
    expect(meets(data, c('expires_at', 'lt', '2027-01-01T00:00:00.000Z'))).toBe(true);
    expect(meets(data, c('amount', 'lt', '1000'))).toBe(false);
  });

  it('in: one of the listed values', () => {
    expect(meets(data, c('status', 'in', ['pending', 'countered']))).toBe(true);
    expect(meets(data, c('status', 'in', ['accepted']))).toBe(false);
    expect(meets(data, c('status', 'in', 'pending'))).toBe(false);
  });

  it('contains: an array holds the value, or a string contains it', () => {
    expect(meets(data, c('match_ids', 'contains', 'mt_2'))).toBe(true);
    expect(meets(data, c('match_ids', 'contains', 'mt_3'))).toBe(false);
    expect(meets(data, c('status', 'contains', 'end'))).toBe(true);
    expect(meets(data, c('amount', 'contains', 3))).toBe(false);
  });

  it('a field the data lacks meets no condition; all conditions must hold', () => {
    expect(meets(data, c('missing', 'ne', 'x'))).toBe(false);
    expect(meetsConditions(data, [])).toBe(true);
    expect(meetsConditions(data, [c('from', 'eq', 'buyer'), c('amount', 'lt', 400)])).toBe(true);
    expect(meetsConditions(data, [c('from', 'eq', 'buyer'), c('amount', 'gt', 400)])).toBe(false);
  });
});

describe('automation actions', () => {
  it('is a union on type with its params checked', () => {
    expect(automationAction.parse({ type: 'accept_offer' })).toEqual({ type: 'accept_offer' });
    expect(automationAction.safeParse({ type: 'counter_offer', params: { belowPercentOfList: 90 } }).success).toBe(false);
    expect(automationAction.safeParse({ type: 'counter_offer', params: { percentOfList: 90, amount: 10 } }).success).toBe(false);
    expect(automationAction.safeParse({ type: 'counter_offer', params: { belowPercentOfList: 90, percentOfList: 90 } }).success).toBe(true);
    expect(automationAction.safeParse({ type: 'reprice_item', params: { percentOfPrice: 95 } }).success).toBe(true);
    expect(automationAction.safeParse({ type: 'launch_rocket', params: {} }).success).toBe(false);
  });
});
