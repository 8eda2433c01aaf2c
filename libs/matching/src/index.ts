// @app/matching — the matching context's contract: the match engine (it provides the ports demand
// and supply define: INSTANT_MATCHING, INTAKE_MATCHING), match runs and match packs, and reverse
// matching. Everything else in this library is its own business.

export { MatchingModule } from './matching.module';

// The stored contract others may read.
export { type MatchCompleted, matchPackStream, parseMatchCompleted } from './match-pack/match-pack.events';

// Public events (webhooks): catalogue entries and their data.
export { MATCH_PACK_PUBLIC_EVENTS } from './match-pack/match-pack.public';
