// The matching holdout (issue 19): buyer requests written the messy ways people type them, built
// deterministically from the project's card data, against one stocked inventory. Each positive
// names the stocked items that rightly meet it; each negative is a near neighbour of stocked
// stock that must meet none. Test support, not a test: test/integration/matching-holdout.int.spec.ts
// runs it through the real write path and writes docs/matching-holdout.md.
//
// The right answers come from this file's own oracle (same catalogue name and set, a raw condition
// at least the requested one, a price at most the maximum), never from the code under test. A
// typo is labelled by the names printed in the requested set that lie one edit from it: exactly
// the intended one → a positive; two or more → an ambiguous negative (nothing may be corrected).
import { cardNameKey, editDistance, IDENTITY_TOKENS } from '@app/catalog';

import type { CardRow, SetRow } from './catalogue-data';
import { compact, fold, gradeOf, GRADES, isIdentityWord, Random, recase, typo, TYPED_IDENTITY_WORDS, TYPO_KINDS, type TypoKind, type Word, words } from './matching-holdout-writing';

export type Polarity = 'positive' | 'negative' | 'by_design';

export interface HoldoutItem {
  id: string;
  cardName: string;
  setName: string;
  condition: string;
  priceMinor: number;
}

export interface HoldoutRequest {
  cardName: string;
  setName: string;
  condition: string;
  maxPriceMinor: number;
}

export interface HoldoutCase {
  id: string;
  kind: string;
  polarity: Polarity;
  request: HoldoutRequest;
  /** The stocked items that rightly meet the request: empty for every negative. */
  right: string[];
  /** The stocked item a negative is a near neighbour of (to report near misses), else null. */
  neighbour: string | null;
}

export interface Holdout {
  items: HoldoutItem[];
  cases: HoldoutCase[];
}

/** Rows per kind (fewer when the data has fewer eligible names). */
const PER_KIND = 30;
export const CURRENCY = 'USD';

interface Card {
  name: string;
  key: string;
  setId: string;
}

class Generator {
  private readonly random: Random;
  private readonly setById: ReadonlyMap<string, SetRow>;
  /** set id → keys printed in it. */
  private readonly keysOfSet = new Map<string, Set<string>>();
  /** key → set ids printing it. */
  private readonly setsOfKey = new Map<string, Set<string>>();
  private readonly catalogueKeys = new Set<string>();
  /** Distinct (name, set) pairs, in file order. */
  private readonly cards: Card[] = [];
  private readonly items: HoldoutItem[] = [];
  private readonly stocked = new Map<string, HoldoutItem[]>();
  private readonly cases: HoldoutCase[] = [];
  /** Negatives written as a typo of a name: the name meant (it must stay unstocked). */
  private readonly meant = new Map<number, Card>();

  constructor(cardRows: readonly CardRow[], private readonly sets: readonly SetRow[], seed: number) {
    this.random = new Random(seed);
    this.setById = new Map(sets.map((s) => [s.set_id, s]));
    const seen = new Set<string>();
    for (const row of cardRows) {
      const key = cardNameKey(row.name);
      this.catalogueKeys.add(key);
      add(this.keysOfSet, row.set_id, key);
      add(this.setsOfKey, key, row.set_id);
      const pair = `${row.set_id}|${row.name}`;
      if (!seen.has(pair)) {
        seen.add(pair);
        this.cards.push({ name: row.name, key, setId: row.set_id });
      }
    }
  }

  // --- stock and the oracle ---------------------------------------------------------------------
  private setName(setId: string): string {
    return this.setById.get(setId)?.name ?? setId;
  }

  private stock(card: Card, condition = this.random.pick(['Mint', 'Near Mint', 'Near Mint', 'Lightly Played', 'Moderately Played'])): HoldoutItem {
    const item: HoldoutItem = {
      id: `inv_${String(this.items.length + 1).padStart(4, '0')}`,
      cardName: card.name,
      setName: this.setName(card.setId),
      condition,
      priceMinor: this.random.int(2, 4000) * 25,
    };
    this.items.push(item);
    const pair = `${card.setId}|${card.key}`;
    this.stocked.set(pair, [...(this.stocked.get(pair) ?? []), item]);
    return item;
  }

  private stockedOr(card: Card): HoldoutItem {
    return this.stocked.get(`${card.setId}|${card.key}`)?.[0] ?? this.stock(card);
  }

  /** The intended request's right answers: same card and set, condition and price met. */
  private rightFor(card: Card, rank: number, maxPriceMinor: number): string[] {
    return (this.stocked.get(`${card.setId}|${card.key}`) ?? [])
      .filter((item) => gradeOf(item.condition).rank >= rank && item.priceMinor <= maxPriceMinor)
      .map((item) => item.id);
  }

  private add(
    kind: string,
    polarity: Polarity,
    request: HoldoutRequest,
    intended: { card: Card; rank: number } | null,
    neighbour: HoldoutItem | null,
    meant: Card | null = null,
  ): void {
    if (meant) this.meant.set(this.cases.length, meant);
    this.cases.push({
      id: `case_${String(this.cases.length + 1).padStart(4, '0')}`,
      kind,
      polarity,
      request,
      // Filled in once all stock exists (a later kind may stock another copy).
      right: intended ? [`${intended.card.setId}|${intended.card.key}|${intended.rank}`] : [],
      neighbour: neighbour?.id ?? null,
    });
  }

  /** A positive for `card`: its stocked item, a condition it meets and a price above its own. */
  private positive(kind: string, card: Card, written: { cardName?: string; setName?: string; condition?: string }, extraCopy = false): void {
    const item = this.stockedOr(card);
    const grade = gradeOf(item.condition);
    const rank = this.random.next() < 0.7 ? grade.rank : Math.max(3, grade.rank - 1);
    const label = GRADES.find((g) => g.rank === rank)?.label ?? 'Near Mint';
    const maxPriceMinor = this.random.next() < 0.2 ? item.priceMinor : item.priceMinor + this.random.int(1, 40) * 25;
    if (extraCopy) {
      const copy = this.stock(card, item.condition);
      copy.priceMinor = Math.max(25, item.priceMinor - this.random.int(1, 10) * 25);
    }
    this.add(
      kind,
      'positive',
      { cardName: written.cardName ?? card.name, setName: written.setName ?? this.setName(card.setId), condition: written.condition ?? label, maxPriceMinor },
      { card, rank },
      null,
    );
  }

  /** Up to PER_KIND distinct (name, set) cards satisfying `eligible`, each name at most once. */
  private sample(eligible: (card: Card) => boolean, count = PER_KIND): Card[] {
    const names = new Set<string>();
    const out: Card[] = [];
    for (const card of this.random.shuffled(this.cards.filter(eligible))) {
      if (names.has(card.key)) continue;
      names.add(card.key);
      out.push(card);
      if (out.length === count) break;
    }
    return out;
  }

  /** The keys printed in `setId` one edit from the typed name's key. */
  private neighboursInSet(typed: string, setId: string): string[] {
    const key = cardNameKey(typed);
    return [...(this.keysOfSet.get(setId) ?? [])].filter((k) => k !== key && editDistance(key, k, 1) <= 1);
  }

  /**
   * A one-letter typo in a word of `card`'s name chosen by `chooseWord`, labelled: a positive when
   * only the intended name in the set is one edit away, an ambiguous negative when two or more are.
   */
  private typoCase(kind: string, card: Card, chooseWord: (w: Word) => boolean, typoKind: TypoKind, polarity: Polarity = 'positive'): boolean {
    const candidates = words(card.name).filter(chooseWord);
    if (candidates.length === 0) return false;
    const { word, at } = this.random.pick(candidates);
    const typed = typo(this.random, word, typoKind);
    if (typed === null) return false;
    const name = card.name.slice(0, at) + typed + card.name.slice(at + word.length);
    if (this.catalogueKeys.has(cardNameKey(name))) return false; // another real name, not a typo
    const neighbours = this.neighboursInSet(name, card.setId);
    if (!neighbours.includes(card.key)) return false;
    if (neighbours.length > 1) {
      this.add('ambiguous typo (2+ names in the set one edit away)', 'negative', this.plainRequest(name, card), null, this.stockedOr(card));
      return true;
    }
    this.positive(kind, card, { cardName: name });
    if (polarity === 'by_design') this.cases[this.cases.length - 1].polarity = 'by_design';
    return true;
  }

  private plainRequest(cardName: string, card: Card): HoldoutRequest {
    const item = this.stockedOr(card);
    return { cardName, setName: this.setName(card.setId), condition: gradeOf(item.condition).label, maxPriceMinor: item.priceMinor + 500 };
  }

  // --- positives ----------------------------------------------------------------------------------
  positives(): void {
    let n = 0;
    for (const card of this.sample(() => true)) this.positive('exact catalogue name', card, {}, n++ % 8 === 0);
    n = 0;
    for (const card of this.sample((c) => /\p{L}{3}/u.test(c.name))) {
      this.positive('case', card, { cardName: recase(this.random, card.name) }, n++ % 8 === 0);
    }
    for (const card of this.sample((c) => fold(c.name) !== c.name && /[A-Za-zÀ-ÿ]/.test(c.name) && !/[δ★◇♀♂αβγ]/u.test(c.name))) {
      this.positive('accents dropped', card, { cardName: fold(card.name) });
    }
    const SYMBOL_WORDS: ReadonlyArray<[RegExp, string]> = [[/δ/g, 'delta'], [/★/g, 'star'], [/◇/g, 'prism'], [/♀/g, 'female'], [/♂/g, 'male']];
    for (const card of this.sample((c) => /[δ★◇♀♂]/u.test(c.name))) {
      let name = card.name;
      for (const [pattern, word] of SYMBOL_WORDS) name = name.replace(pattern, ` ${this.random.next() < 0.5 ? word : word.toUpperCase()} `);
      this.positive('symbols as words', card, { cardName: name.replace(/\s+/g, ' ').trim() });
    }
    for (const card of this.sample((c) => / & /.test(c.name))) {
      this.positive('& written and', card, { cardName: card.name.replace(/ & /g, this.random.pick([' and ', ' And ', ' AND '])) });
    }
    for (const card of this.sample((c) => /\p{L}-\p{L}/u.test(c.name))) {
      this.positive('hyphen as space', card, { cardName: card.name.replace(/(\p{L})-(\p{L})/gu, '$1 $2') });
    }
    for (const card of this.sample((c) => / /.test(c.name))) {
      const spaced = card.name.replace(/ /g, () => this.random.pick(['  ', ' ', '   ', '\t']));
      this.positive('extra spaces', card, { cardName: `${this.random.pick(['', ' ', '  '])}${spaced}${this.random.pick(['', ' ', '\u00a0'])}` });
    }
    for (const card of this.sample((c) => /'/.test(c.name))) {
      this.positive('apostrophes', card, { cardName: card.name.replace(/'/g, () => this.random.pick(['', '’', '`', '´'])) });
    }
    this.setPositives();
    for (const card of this.sample(() => true)) {
      const item = this.stockedOr(card);
      const grade = gradeOf(item.condition);
      const spelled = GRADES.find((g) => g.rank === (this.random.next() < 0.6 ? grade.rank : Math.max(3, grade.rank - 1))) ?? grade;
      this.positive('condition spellings', card, { condition: this.random.pick(spelled.spellings) });
      // The intended rank is the spelled one (the oracle reads it from the label).
      this.cases[this.cases.length - 1].right = [`${card.setId}|${card.key}|${spelled.rank}`];
    }
    for (const typoKind of TYPO_KINDS) {
      let made = 0;
      const long = (w: Word) => w.length >= 5 && !isIdentityWord(w.word);
      for (const card of this.sample((c) => words(c.name).some(long), PER_KIND * 2)) {
        if (made === PER_KIND) break;
        if (this.typoCase(`typo: ${typoKind} letter`, card, long, typoKind)) made++;
      }
    }
    this.fusedPositives();
    let made = 0;
    const identity = (w: Word) => TYPED_IDENTITY_WORDS.has(w.word.toLowerCase());
    for (const card of this.sample((c) => words(c.name).some(identity), PER_KIND * 2)) {
      if (made === PER_KIND) break;
      if (this.typoCase('misspelt identity word (Dark, Radiant, Hisuian, VMAX…)', card, identity, this.random.pick(TYPO_KINDS))) made++;
    }
    made = 0;
    const short = (w: Word) => w.length >= 3 && w.length <= 4 && !isIdentityWord(w.word);
    for (const card of this.sample((c) => words(c.name).some(short), PER_KIND)) {
      if (made === 10) break;
      if (this.typoCase('typo in a word under 5 letters (not corrected by design)', card, short, this.random.pick(TYPO_KINDS), 'by_design')) made++;
    }
  }

  private setPositives(): void {
    const loose = (s: string) => fold(s).toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, ' ').trim();
    // A code, id or alias is only a fair positive when it names one set.
    const uses = new Map<string, number>();
    for (const s of this.sets) for (const t of new Set([s.set_id, s.ptcgo_code, s.name].filter(Boolean).map(loose))) uses.set(t, (uses.get(t) ?? 0) + 1);
    const unique = (t: string) => uses.get(loose(t)) === 1;
    for (const card of this.sample((c) => unique(this.setById.get(c.setId)?.ptcgo_code || '-'))) {
      const code = this.setById.get(card.setId)?.ptcgo_code ?? '';
      this.positive('set code', card, { setName: this.random.next() < 0.7 ? code : code.toLowerCase() });
    }
    for (const card of this.sample((c) => unique(c.setId))) this.positive('set id', card, { setName: card.setId });
    for (const card of this.sample(() => true)) {
      const name = this.setName(card.setId);
      const alias = name.endsWith(' Set') ? name.slice(0, -' Set'.length) : `${name} Set`;
      const forms = [alias, name.toLowerCase(), name.toUpperCase(), fold(name).replace(/&/g, 'and'), name.replace(/ /g, '  ')].filter((f) => f !== name && (f !== alias || !uses.has(loose(alias))));
      this.positive('set name written loosely or as alias', card, { setName: this.random.pick(forms.length > 0 ? forms : [name.toLowerCase()]) });
    }
  }

  private fusedPositives(): void {
    // One separator (space or hyphen) removed between two words.
    const separators = (name: string) => [...name.matchAll(/[ -]/g)].map((m) => m.index ?? 0).filter((i) => i > 0 && i < name.length - 1);
    const fusedWith = (name: string, i: number) => name.slice(0, i) + name.slice(i + 1);
    const neighbourWords = (name: string, i: number) => [name.slice(0, i).split(/[ -]/).pop() ?? '', name.slice(i + 1).split(/[ -]/)[0] ?? ''];
    const fair = (card: Card, fused: string) => {
      const key = cardNameKey(fused);
      if (this.catalogueKeys.has(key)) return false;
      const same = [...(this.keysOfSet.get(card.setId) ?? [])].filter((k) => compact(k) === compact(key));
      return same.length === 1 && same[0] === card.key;
    };
    for (const mechanic of [true, false]) {
      const kind = mechanic ? 'fused mechanic or form word (ZekromGX, RadiantVenusaur)' : 'fused words (PorygonZ, CaféMaster)';
      const eligible = (c: Card) => separators(c.name).some((i) => neighbourWords(c.name, i).some(isIdentityWord) === mechanic);
      let made = 0;
      for (const card of this.sample(eligible, PER_KIND * 2)) {
        if (made === PER_KIND) break;
        const at = separators(card.name).filter((i) => neighbourWords(card.name, i).some(isIdentityWord) === mechanic);
        const fused = fusedWith(card.name, this.random.pick(at));
        if (!fair(card, fused)) continue;
        this.positive(kind, card, { cardName: fused });
        made++;
      }
    }
  }

  // --- negatives ----------------------------------------------------------------------------------
  /** Pairs (stocked, requested) of distinct names printed in one set, chosen by `related`. */
  private pairsInSets(related: (a: string, b: string) => boolean, limit: number): Array<[Card, Card]> {
    const bySet = new Map<string, Card[]>();
    for (const card of this.cards) bySet.set(card.setId, [...(bySet.get(card.setId) ?? []), card]);
    const pairs: Array<[Card, Card]> = [];
    const names = new Set<string>();
    for (const setId of this.random.shuffled([...bySet.keys()])) {
      const cards = bySet.get(setId) ?? [];
      for (const a of this.random.shuffled(cards)) {
        const b = cards.find((c) => c.key !== a.key && related(a.key, c.key));
        if (!b || names.has(a.key) || names.has(b.key)) continue;
        names.add(a.key).add(b.key);
        pairs.push([a, b]);
        break;
      }
      if (pairs.length === limit) break;
    }
    return pairs;
  }

  negatives(): void {
    const plain = (key: string) => key.split(' ').filter((t) => !IDENTITY_TOKENS.has(t)).join(' ');
    for (const [stocked, asked] of this.pairsInSets((a, b) => plain(a) !== '' && plain(a) === plain(b), PER_KIND)) {
      const name = this.random.next() < 0.3 ? recase(this.random, asked.name) : asked.name;
      this.add('identity neighbour (Dark Charizard, only Charizard stocked)', 'negative', this.plainRequest(name, stocked), null, this.stockedOr(stocked));
    }
    const oneEdit = (a: string, b: string) => editDistance(a, b, 1) === 1;
    const nameNeighbours = this.pairsInSets(oneEdit, PER_KIND);
    for (const [stocked, asked] of nameNeighbours) {
      this.add('name neighbour (Nidorina asked, Nidorino stocked)', 'negative', this.plainRequest(asked.name, stocked), null, this.stockedOr(stocked));
    }
    // A letter neither name has, where the two differ: one edit from both.
    for (const [stocked, other] of nameNeighbours) {
      if (stocked.name.length !== other.name.length) continue;
      const diff = [...stocked.name].flatMap((c, i) => (c !== other.name[i] ? [i] : []));
      if (diff.length !== 1 || !/[a-z]/.test(stocked.name[diff[0]])) continue;
      const i = diff[0];
      const letter = [...'aeiouy'].find((c) => c !== stocked.name[i] && c !== other.name[i]) ?? 'x';
      const typed = stocked.name.slice(0, i) + letter + stocked.name.slice(i + 1);
      if (this.catalogueKeys.has(cardNameKey(typed)) || this.neighboursInSet(typed, stocked.setId).length < 2) continue;
      this.add('ambiguous typo (2+ names in the set one edit away)', 'negative', this.plainRequest(typed, stocked), null, this.stockedOr(stocked));
    }
    // A typo of the unstocked neighbour: it must resolve to that name (or to none), never the stocked one.
    for (const [stocked, asked] of [...nameNeighbours, ...this.pairsInSets((a, b) => plain(a) !== '' && plain(a) === plain(b), PER_KIND)]) {
      const eligible = words(asked.name).filter((w) => w.length >= 5 && !isIdentityWord(w.word));
      if (eligible.length === 0) continue;
      const { word, at } = this.random.pick(eligible);
      const typed = typo(this.random, word, this.random.pick(TYPO_KINDS));
      if (typed === null) continue;
      const name = asked.name.slice(0, at) + typed + asked.name.slice(at + word.length);
      if (this.catalogueKeys.has(cardNameKey(name))) continue;
      this.add('typo of an unstocked neighbour', 'negative', this.plainRequest(name, stocked), null, this.stockedOr(stocked), asked);
    }
    const stockedItems = () => this.random.shuffled(this.cards.filter((c) => this.stocked.has(`${c.setId}|${c.key}`)));
    let made = 0;
    for (const card of stockedItems()) {
      const item = this.stockedOr(card);
      const grade = gradeOf(item.condition);
      if (grade.rank >= 6 || made === PER_KIND) continue;
      const better = GRADES.filter((g) => g.rank > grade.rank);
      this.add('stricter condition', 'negative', { ...this.plainRequest(card.name, card), condition: this.random.pick(better).label }, null, item);
      made++;
    }
    made = 0;
    for (const card of stockedItems()) {
      if (made === PER_KIND) break;
      const other = [...(this.setsOfKey.get(card.key) ?? [])].find((s) => s !== card.setId && !this.stocked.has(`${s}|${card.key}`));
      if (!other) continue;
      this.add('set not stocked', 'negative', { ...this.plainRequest(card.name, card), setName: this.setName(other) }, null, this.stockedOr(card));
      made++;
    }
    made = 0;
    for (const card of stockedItems()) {
      if (made === PER_KIND) break;
      const item = this.stockedOr(card);
      const under = Math.floor((item.priceMinor * this.random.int(50, 98)) / 100);
      if (under >= item.priceMinor || under <= 0) continue;
      this.add('price under the listing', 'negative', { ...this.plainRequest(card.name, card), maxPriceMinor: under }, null, item);
      made++;
    }
  }

  /** Resolves the intended answers against the final stock; negatives keep none. */
  finish(): Holdout {
    for (const c of this.cases) {
      if (c.right.length === 0) continue;
      const [setId, key, rank] = c.right[0].split('|');
      c.right = this.rightFor({ name: '', key, setId }, Number(rank), c.request.maxPriceMinor);
    }
    // A negative whose request happens to be met by some stock (another kind stocked it) is no
    // negative: the oracle drops it rather than let it count either way.
    const cases = this.cases.filter((c, i) => {
      if (c.polarity !== 'negative') return true;
      const meant = this.meant.get(i);
      const meantStocked = meant !== undefined && this.rightFor(meant, gradeOf(c.request.condition).rank, c.request.maxPriceMinor).length > 0;
      return !meantStocked && !this.metByStock(c.request);
    });
    return { items: this.items, cases: cases.filter((c) => c.polarity === 'negative' || c.right.length > 0) };
  }

  /** Does any stocked item meet the request as the oracle reads it (exact catalogue names only)? */
  private metByStock(request: HoldoutRequest): boolean {
    const set = this.sets.find((s) => s.name === request.setName);
    const key = cardNameKey(request.cardName);
    if (!set || !this.catalogueKeys.has(key)) return false;
    const rank = gradeOf(request.condition).rank;
    return this.rightFor({ name: '', key, setId: set.set_id }, rank, request.maxPriceMinor).length > 0;
  }
}

function add<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/** The holdout for the project's card data; the same seed always gives the same cases. */
export function buildHoldout(cards: readonly CardRow[], sets: readonly SetRow[], seed = 19): Holdout {
  const generator = new Generator(cards, sets, seed);
  generator.positives();
  generator.negatives();
  return generator.finish();
}
