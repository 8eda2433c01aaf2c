// A buyer's personal data: erased key by key. Erasing a key already erased records nothing, so a
// retried erasure (after a crash between the record and the key's destruction) converges.
import type { Decider } from '@app/platform/domain';

import type { BuyerEvent } from './buyer.events';

export interface EraseBuyerPersonalData {
  type: 'EraseBuyerPersonalData';
  buyerId: string;
  /** The buyer's live data key to destroy. */
  keyId: string;
  now: Date;
}

export type BuyerCommand = EraseBuyerPersonalData;

export interface BuyerState {
  /** The data keys whose erasure is recorded. */
  erasedKeyIds: ReadonlySet<string>;
}

export const buyerDecider: Decider<BuyerCommand, BuyerEvent, BuyerState> = {
  initialState: { erasedKeyIds: new Set() },

  decide(command, state) {
    switch (command.type) {
      case 'EraseBuyerPersonalData':
        if (state.erasedKeyIds.has(command.keyId)) return [];
        return [
          {
            type: 'buyer.personal_data_erased',
            data: { buyerId: command.buyerId, keyId: command.keyId, erasedAt: command.now.toISOString() },
          },
        ];
      default: {
        const never: never = command.type;
        throw new Error(`Unknown command ${String(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'buyer.personal_data_erased':
        return { erasedKeyIds: new Set([...state.erasedKeyIds, event.data.keyId]) };
      default: {
        const never: never = event.type;
        return never;
      }
    }
  },
};
