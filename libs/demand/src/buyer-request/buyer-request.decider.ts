// Buyer requests: demand signals. Created once per id.
import { type Decider, DomainError } from '@app/platform';

import type { BuyerRequestEvent } from './buyer-request.events';

export interface CreateBuyerRequest {
  type: 'CreateBuyerRequest';
  buyerRequestId: string;
  cardName: string;
  setName: string;
  condition: string;
  maxPriceMinor: number;
  currency: string;
  source: string | null;
  now: Date;
}

export type BuyerRequestCommand = CreateBuyerRequest;

export type BuyerRequestState = { status: 'none' } | { status: 'open'; buyerRequestId: string };

export const buyerRequestDecider: Decider<BuyerRequestCommand, BuyerRequestEvent, BuyerRequestState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'CreateBuyerRequest': {
        if (state.status !== 'none') {
          throw new DomainError('CONFLICT', `Buyer request ${command.buyerRequestId} already exists`);
        }
        const { type: _type, now, ...fields } = command;
        return [{ type: 'buyer_request.created', data: { ...fields, createdAt: now.toISOString() } }];
      }
      default: {
        const never: never = command.type;
        throw new Error(`Unknown command ${String(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'buyer_request.created':
        return { status: 'open', buyerRequestId: event.data.buyerRequestId };
      default:
        return state;
    }
  },
};
