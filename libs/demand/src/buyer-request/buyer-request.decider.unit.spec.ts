import { deciderSpec } from '@app/platform/domain/specification';

import { buyerRequestDecider, type CreateBuyerRequest } from './buyer-request.decider';
import type { BuyerRequestEvent } from './buyer-request.events';

const spec = deciderSpec(buyerRequestDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const create: CreateBuyerRequest = {
  type: 'CreateBuyerRequest',
  buyerRequestId: 'br_1',
  cardName: 'Charizard',
  setName: 'Base',
  condition: 'Near Mint',
  maxPriceMinor: 45000,
  currency: 'USD',
  source: 'show',
  now,
};
const created: BuyerRequestEvent = {
  type: 'buyer_request.created',
  data: {
    buyerRequestId: 'br_1',
    cardName: 'Charizard',
    setName: 'Base',
    condition: 'Near Mint',
    maxPriceMinor: 45000,
    currency: 'USD',
    source: 'show',
    createdAt: now.toISOString(),
  },
};

describe('buyer request decider', () => {
  it('creates a buyer request with its price in minor units', () => {
    spec.given([]).when(create).then([created]);
  });

  it('refuses to create the same request twice', () => {
    spec.given([created]).when(create).thenThrows('CONFLICT', 'already exists');
  });
});
