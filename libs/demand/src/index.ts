// @app/demand — the demand context's contract: buyer requests and the matches recorded for them.
// Everything else in this library is its own business.

export { DemandModule } from './demand.module';

// The stored contract others may read: stream ids, event types and parsers.
export {
  BUYER_REQUEST_EVENT_TYPES,
  type BuyerRequestCriteria,
  type BuyerRequestEvent,
  type BuyerRequestMatchesRecorded,
  buyerRequestStream,
  MATCHES_RECORDED_TYPES,
} from './buyer-request/buyer-request.events';
export { parseBuyerRequestEvent, parseMatchesRecorded } from './buyer-request/buyer-request.parse';

// The command others may send: record matches on a request (loadMatchableRequest, then its
// recordMatches), inside their own write transaction; the same load answers whether a request
// exists and which match it recorded (recordedMatch), from its stream, for a decision on it. The
// match index's projection, for a caller that must wait for a match recorded an instant ago.
export {
  loadMatchableRequest,
  MATCH_INDEX_PROJECTION,
  type MatchableRequest,
  type RecordedMatchOnRequest,
} from './buyer-request/buyer-request.matching';

// Ports: the match engine demand asks (provided by matching), and the read-only views others read
// (requests with their buyer opened, and the matches recorded on them).
export { INSTANT_MATCHING, type InstantMatching } from './buyer-request/instant-matching.port';
export {
  BUYER_REQUEST_READER,
  type BuyerIdentity,
  type BuyerRequestReader,
  type BuyerRequestView,
  type MatchView,
  type OfferedItem,
} from './buyer-request/buyer-request-reader.port';

// The command demand accepts from automations: archive a buyer request.
export { ArchiveBuyerRequestCommand } from './buyer-request/buyer-request.handlers';

// The command the CLI's demo seed and the widget's want list send to capture demand (matched
// against the stock at once); the widget's carries the buyer's contact (sealed with their own key).
export { type BuyerRequestInput, CreateBuyerRequestCommand, type CreatedBuyerRequest } from './buyer-request/buyer-request.handlers';
export type { BuyerContact } from './buyer/buyer-contacts';
export { BuyerIdOfEmailQuery } from './buyer/buyer.queries';
// The read-only port notifications read a request's buyer through (its id; the contact opened only to send).
export { BUYER_CONTACT_READER, type BuyerContactReader, type RequestBuyer, type RequestBuyerContact } from './buyer/buyer-contact-reader';
// The erasure of a buyer's personal data, as the log records it (for those who must forget with it).
export { BUYER_EVENT_TYPES, type BuyerPersonalDataErased, buyerPersonalDataErased } from './buyer/buyer.events';
export { BUYER_ID_PATTERN, normalizeEmail } from './buyer/buyer-id';

// Public events (webhooks): catalogue entries and their data.
export { BUYER_REQUEST_PUBLIC_EVENTS } from './buyer-request/buyer-request.public';
