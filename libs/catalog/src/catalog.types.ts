// The public shapes of normalization: every normalizer returns the value, what it changed, how
// sure it is and what it warns about. Unknown input is kept verbatim and flagged, never dropped.

export interface Normalization<T> {
  /** The normalized value. */
  value: T;
  /** The input exactly as given. */
  input: string;
  /** Human-readable changes made, e.g. `expanded "NM" to "Near Mint"`; empty when none. */
  changes: string[];
  /** 0..1: 1 = exact/known, lower for guesses, low for unknown values kept verbatim. */
  confidence: number;
  /** Things a person should look at, e.g. `unknown set "Jungel" kept as given (did you mean "Jungle"?)`. */
  warnings: string[];
  /** False when the value is not recognised and was kept verbatim (flagged). */
  recognized: boolean;
}

/** A card name: `name` is the display form, `key` its matching identity. */
export interface CardName {
  /** Display form: the catalogue spelling when the name is known, else the cleaned input. */
  name: string;
  /**
   * Matching identity: lower case, accents folded, `&` → `and`, punctuation and spacing unified,
   * mechanic suffixes kept (`charizard ex` and `charizard EX` stay different identities).
   */
  key: string;
}

/** A set: known sets resolve to the catalogue's set; unknown ones keep the cleaned input. */
export interface SetRef {
  /** Display name: the catalogue's name (e.g. `Base`) when known, else the cleaned input. */
  name: string;
  /** Matching identity: the catalogue `set_id` (e.g. `base1`) when known, else `?<folded input>`. */
  key: string;
  setId: string | null;
  /** The set's short code (ptcgo_code, e.g. `BS`) when it has one. */
  code: string | null;
}

export type RawGrade = 'M' | 'NM' | 'LP' | 'MP' | 'HP' | 'DMG';
export type GradingCompany = 'PSA' | 'BGS' | 'CGC' | 'SGC';

export type Condition =
  /** rank: DMG 1, HP 2, MP 3, LP 4, NM 5, M 6. label: `Near Mint` etc. */
  | { kind: 'raw'; code: RawGrade; rank: number; label: string }
  /** grade 1..10 in half steps; label `PSA 9.5`. */
  | { kind: 'graded'; company: GradingCompany; grade: number; label: string }
  /** Not recognised: the cleaned input kept verbatim as the label. */
  | { kind: 'unknown'; label: string };

/**
 * How an offered condition fits a requested one:
 * - `meets`: fully satisfies the request;
 * - `near_miss`: close but not enough (one step below, raw vs graded…) — shown, scored lower;
 * - `no`: not a candidate.
 */
export interface ConditionFit {
  verdict: 'meets' | 'near_miss' | 'no';
  /** Steps above (positive) or below (negative) the request on its own scale; 0 when equal or incomparable. */
  margin: number;
  /** Graded vs graded only: the same grading company. */
  sameCompany: boolean;
  /** One sentence saying why, e.g. `PSA 10 is 1 grade above the requested PSA 9`. */
  reason: string;
}

/** A price parsed from a string like `$1,234.50` or a number. */
export interface Price {
  amountMinor: number;
  /** ISO 4217 code when the input said (`$` → USD, `€` → EUR, `£` → GBP, `USD 12`), else null. */
  currency: string | null;
}
