// The shape of the bundled catalogue rows (generated from libs/catalog/data by scripts/build-catalog.mjs).

export interface CatalogueSet {
  setId: string;
  name: string;
  series: string;
  /** ptcgo_code; null when the source has none. */
  code: string | null;
  /** ISO date (YYYY-MM-DD). */
  releaseDate: string;
  printedTotal: number;
}
