// @app/contracts: the published language contexts share — vocabulary only (zod schemas, types and
// constants), no behaviour, no imports but zod. A decider or event contract may import it.
export {
  type FoundMatch,
  MATCH_FACTOR_NAMES,
  MATCH_KINDS,
  type MatchCandidate,
  type MatchFactor,
  type MatchFactorName,
  matchFactor,
  matchFactorResponse,
  type MatchKind,
  MAX_MATCHES_PER_KIND,
} from './match';
