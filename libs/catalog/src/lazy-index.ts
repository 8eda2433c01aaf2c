// The catalogue's indexes are each built on first use, so a process that never normalizes a
// listing pays nothing for them; a server builds them all before it listens (indexCatalogue), so
// its first request does not pay either.
let built = 0;

/** `build` run once, on the first call of what this returns. */
export function lazyIndex<T>(build: () => T): () => T {
  let index: T | undefined;
  return () => {
    if (index === undefined) {
      index = build();
      built += 1;
    }
    return index;
  };
}

/** How many of the catalogue's indexes this process has built so far. */
export function catalogueIndexesBuilt(): number {
  return built;
}
