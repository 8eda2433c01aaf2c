// The offer aggregate as the write path runs it (offer handlers, trades from an accepted offer).
import { offerDecider } from './offer.decider';
import { parseOfferEvent } from './offer.events';

export const offerAggregate = { decider: offerDecider, parseEvent: parseOfferEvent };
