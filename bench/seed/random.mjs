// The seeded randomness of the scale generator: mulberry32, a string hash for per-card facts that
// must not depend on the seed, and weighted / uniform picks.

// mulberry32: small, fast, good enough for test data.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, 32 bits: a stable number per string (a card's market price must not depend on the seed). */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export const unitOf = (text) => prng(hash32(text))();

/** Weighted pick: `table` = [[weight, value], …]. */
export function weighted(rnd, table) {
  const total = table.reduce((s, [w]) => s + w, 0);
  let x = rnd() * total;
  for (const [w, v] of table) {
    x -= w;
    if (x < 0) return v;
  }
  return table[table.length - 1][1];
}

export const pick = (rnd, list) => list[Math.floor(rnd() * list.length)];
