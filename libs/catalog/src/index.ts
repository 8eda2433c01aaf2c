// @app/catalog: pure normalization of card names, sets, conditions and prices against the bundled
// catalogue (regenerate it with `node scripts/build-catalog.mjs`).
export * from './catalog.types';
export type { CatalogueSet } from './catalogue-data.types';
export { normalizeCardName } from './card-name';
export {
  resolveCardName,
  CONFIDENCE_LETTER_CORRECTED,
  CONFIDENCE_SPACING_CORRECTED,
  MIN_CORRECTED_WORD_LENGTH,
} from './card-name-resolution';
export { keysOneEditFrom, keysWithLettersOf } from './card-name-neighbours';
export { cardNameKey, readCardKey, identitySignature, IDENTITY_TOKENS } from './card-name-key';
export type { CardKeyReading } from './card-name-key';
export {
  similarCardNames,
  catalogueNameOfKey,
  catalogueSpellingsOfKey,
  catalogueCardKeys,
  cardKeysOfSet,
  keyOfCatalogueName,
} from './card-catalogue';
export type { SimilarCardNamesOptions } from './card-catalogue';
export { indexCatalogue } from './index-catalogue';
export { catalogueIndexesBuilt } from './lazy-index';
export { nameSimilarity, editDistance, TYPO_SIMILARITY, DIFFERENT_IDENTITY_CAP } from './similarity';
export { normalizeSetName, findSet, setNameAliases } from './set-name';
export { CATALOGUE_SETS } from './data/sets.generated';
export {
  normalizeCondition,
  conditionClass,
  conditionScore,
  rawCondition,
  gradedCondition,
  CONDITION_TABLE,
  RAW_GRADES,
  GRADING_COMPANIES,
} from './condition';
export type { ConditionSpelling, RawGradeInfo } from './condition';
export { compareCondition, GRADED_NEAR_MISS, RAW_NEAR_MISS, RAW_RANK_NEAR_GRADED } from './condition-compare';
export { normalizePrice } from './price';
export { ANY_CONDITION_CLASS, ANY_SET_KEY, anySetMatchKey, normalizeListing, normalizeWant } from './listing';
export { parseCsv } from './csv';
export type { ListingInput, MatchFields, NormalizedListing, NormalizedWant, WantInput } from './listing';
