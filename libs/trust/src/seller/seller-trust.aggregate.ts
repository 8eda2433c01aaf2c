// The seller trust aggregate as the write path runs it.
import { sellerTrustDecider } from './seller-trust.decider';
import { parseSellerTrustEvent } from './seller-trust.events';

export const sellerTrustAggregate = { decider: sellerTrustDecider, parseEvent: parseSellerTrustEvent };
