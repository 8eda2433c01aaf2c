// A seller's inputs kept as their rows arrive, so that issuing the next credential costs what the
// new rows cost, not what every trade of the seller's costs again: each input row is made once —
// its pseudonymous ref (an HMAC) and its RFC 8785 text — and kept in the document's order
// (closedAt, then ref; equal keys in log order, as the stable sort of inputsDocument leaves them),
// beside the score's stats (counts, the sorted shipping hours, the first start).
//
// The inputs document's canonical text is then its head — `{"asOf":…,"formula":…,"seller":…,
// "trades":[` (JCS orders the keys; `trades` comes last) — and the rows' texts joined by commas:
// byte for byte canonicalJson(inputsDocument(…)) of the same rows, which the equivalence test pins
// (trust-inputs-ledger.int.spec.ts). Each row's text is kept as its UTF-8 bytes: the document is
// then one copy of them (the canonicalizer builds a row's text as a rope of small strings, which a
// join walks again on every call). What is left that grows with the seller's trades is that copy
// and hashing it: the bytes the credential's inputsHash covers. Pure.
import { scoreStats, type InputsStats, addToStats, emptyStats, statsOf, type TrustScore } from './trust-score';
import { canonicalJson, type InputRow, inputRowOf, type TradeOutcomeRow, TRUST_FORMULA } from './trust-inputs';

const COMMA = 0x2c;
const CLOSE = Buffer.from(']}', 'utf8');

interface Entry {
  /** The outcome's log position. */
  position: number;
  closedAt: string;
  ref: string;
  /** The row's canonical (JCS) text, UTF-8. */
  bytes: Buffer;
}

/** An immutable view of a seller's inputs at one moment: what one issuance reads. */
export interface InputsView {
  /** The highest outcome position of the rows (-1 for none): what the inputs reach up to. */
  readonly upTo: number;
  /** Whether any row is a completed trade (a credential needs one). */
  readonly anyCompleted: boolean;
  /** Rows in the document. */
  readonly count: number;
  /** The canonical text of the inputs document as of `asOf`, over the rows with an outcome at or before `upTo` (default: all). */
  text(asOf: string, upTo?: number): string;
  /** The same text's UTF-8 bytes (what inputsHash covers). */
  bytes(asOf: string, upTo?: number): Buffer;
  /** The score of all the rows as of `asOf` (exactly scoreInputs of the document). */
  score(asOf: string): TrustScore;
}

export class SellerInputs {
  private entries: Entry[] = [];
  private stats: InputsStats = emptyStats();
  /** The stats could not be kept exact incrementally (see addToStats): rebuilt from the rows on demand. */
  private statsStale = false;
  private anyCompleted = false;
  /** Highest outcome position among the rows taken, and that row's id (-1 / null before any). */
  upTo = -1;
  lastId: string | null = null;

  constructor(
    readonly seller: string,
    private readonly refOf: (tradeId: string) => string,
  ) {}

  /** Rows taken so far (the document's rows). */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Takes the next rows of the seller's, in outcome-position order, each past `upTo` (what
   * outcomeRowsOf returns after it). A row's outcome is final, so a row taken never changes.
   */
  add(rows: ReadonlyArray<TradeOutcomeRow & { id: string }>): void {
    for (const row of rows) {
      const position = row.outcomePosition;
      if (position === null || position <= this.upTo) throw new Error(`SellerInputs: row ${row.id} at ${String(position)} is not past ${this.upTo}`);
      this.upTo = position;
      this.lastId = row.id;
      if (row.outcome === 'completed') this.anyCompleted = true;
      const input = inputRowOf(row, this.refOf);
      if (input === null) continue;
      const entry: Entry = { position, closedAt: input.closedAt, ref: input.ref, bytes: Buffer.from(canonicalJson(input), 'utf8') };
      this.entries.splice(this.insertionPoint(entry), 0, entry);
      if (!this.statsStale && !addToStats(this.stats, input)) this.statsStale = true;
    }
  }

  /** A view of the rows taken so far, which later `add`s leave as it is. */
  view(): InputsView {
    const entries = this.entries.slice();
    if (this.statsStale) {
      this.stats = statsOf(entries.map((e) => JSON.parse(e.bytes.toString('utf8')) as InputRow)); // a row's text is its JSON
      this.statsStale = this.stats.unordered; // a NaN hour: the order matters, so rebuild each time
    }
    const stats = { ...this.stats, shipHours: this.stats.shipHours.slice() };
    const { upTo, anyCompleted, seller } = this;
    const bytes = (asOf: string, at = upTo): Buffer => {
      const head = canonicalJson({ formula: TRUST_FORMULA, seller, asOf, trades: [] });
      const open = Buffer.from(head.slice(0, -']}'.length), 'utf8'); // … "trades":[
      const chosen = at >= upTo ? entries : entries.filter((e) => e.position <= at);
      let length = open.length + Math.max(0, chosen.length - 1) + CLOSE.length;
      for (const e of chosen) length += e.bytes.length;
      const out = Buffer.allocUnsafe(length);
      let offset = open.copy(out, 0);
      chosen.forEach((e, i) => {
        if (i > 0) out[offset++] = COMMA;
        offset += e.bytes.copy(out, offset);
      });
      CLOSE.copy(out, offset);
      return out;
    };
    return {
      upTo,
      anyCompleted,
      count: entries.length,
      bytes,
      text: (asOf, at) => bytes(asOf, at).toString('utf8'),
      score: (asOf) => scoreStats(stats, asOf),
    };
  }

  /** After every entry whose (closedAt, ref) is at or before the new one's: the document's order. */
  private insertionPoint(entry: Entry): number {
    const { entries } = this;
    // Outcomes mostly close in time order: the end is the usual place.
    const last = entries[entries.length - 1];
    if (last === undefined || compare(last, entry) <= 0) return entries.length;
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(entries[mid], entry) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** inputsDocument's order: closedAt, then ref. */
function compare(a: Entry, b: Entry): number {
  return a.closedAt < b.closedAt ? -1 : a.closedAt > b.closedAt ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0;
}
