// Deterministic generator of realistic trading-card supply and demand for the scale benchmark,
// built on the real catalogue data in libs/catalog/data (cards.csv, sets.csv). Pure: no app code,
// no I/O beyond reading the two CSV files. Same seed → same rows, on every machine.
//
//   import { loadCatalog, createGenerator } from './seed/generator.mjs';
//   const gen = createGenerator(loadCatalog(), { seed: 1 });
//   gen.inventoryItem();  // { cardName, setName, condition, price, currency, quantity, sku, cardNumber, notes }
//   gen.buyerRequest();   // { cardName, setName, condition, maxPrice, currency, source }
//   gen.intakeRow();      // a raw intake row (JSON object as a seller's export has it), ~1 % with errors
//
// The model (the same for inventory, requests and intake rows, so requests hit stock):
// - card: uniform over the 20,444 cards of cards.csv whose set is in sets.csv (BENCH-SKEW: optional
//   popularity skew, see `cardPicker`);
// - set typed as its name (65 %), its ptcgo code where the code is unique to the set (15 %),
//   "<name> Set" / the name without " Set" (10 %) or the name lower-cased (10 %);
// - card name as printed, lower-cased 10 % of the time, with stray spaces 3 %;
// - condition (inventory): NM 45 %, LP 20 %, MP 10 %, M 5 %, HP 5 %, DMG 2 %, graded 13 %
//   (PSA / BGS / CGC, grades 8-10), each in several spellings ("NM", "Near Mint", "nm-m",
//   "Excellent", "PSA 10", "bgs 9.5", "Beckett 9.5"…);
// - price: a per-card market price drawn once from the card's rarity band (commons cents to a
//   dollar or two, holo rares tens to hundreds of dollars, vintage holos more), times a factor for
//   the condition, times ±30 % noise; USD 97 %, EUR 3 % (× 0.92);
// - quantity 1-4 (1: 60 %, 2: 20 %, 3: 10 %, 4: 10 %);
// - buyer requests: a lowest acceptable condition (NM 38 %, LP 30 %, MP 14 %, HP 4 %, M 2 %,
//   graded 12 %) and a maximum price of market × the condition's factor × 0.7-1.4, so that about
//   half of the stock at or above the requested condition is affordable.
import { loadCatalog } from './catalog.mjs';
import { hash32, pick, prng, weighted } from './random.mjs';
import { cardSpelling, inventoryCondition, priced, requestCondition, setSpelling, toMajor } from './spellings.mjs';

// The catalogue (catalog.mjs), the randomness (random.mjs) and the spellings (spellings.mjs) live
// beside this file; these are re-exported for the benches that import them from here.
export { DEFAULT_DATA_DIR, parseCsv } from './catalog.mjs';
export { prng } from './random.mjs';
export { loadCatalog };

// ---------------------------------------------------------------------------------------------

/**
 * Card picker. `skew` = 0: uniform over the catalogue (default). `skew` > 0: a Zipf-like
 * popularity (weight 1 / rank^skew over a seed-independent shuffle of the catalogue), for
 * sensitivity runs where demand and stock crowd on popular cards.
 */
function cardPicker(cards, rnd, skew) {
  if (!skew) return () => cards[Math.floor(rnd() * cards.length)];
  const order = [...cards].sort((a, b) => hash32(a.cardId) - hash32(b.cardId));
  const cumulative = new Float64Array(order.length);
  let total = 0;
  for (let i = 0; i < order.length; i += 1) {
    total += 1 / (i + 1) ** skew;
    cumulative[i] = total;
  }
  return () => {
    const x = rnd() * total;
    let lo = 0;
    let hi = order.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo];
  };
}

export function createGenerator(catalog, { seed = 1, skew = 0 } = {}) {
  const rnd = prng(seed);
  const nextCard = cardPicker(catalog.cards, rnd, skew);

  function inventoryItem() {
    const card = nextCard();
    const condition = inventoryCondition(rnd);
    const eur = rnd() < 0.03;
    const minor = priced(rnd, card, condition.factor * (eur ? 0.92 : 1), 0.8, 1.3);
    const quantity = weighted(rnd, [[60, 1], [20, 2], [10, 3], [10, 4]]);
    const x = rnd();
    return {
      cardName: cardSpelling(rnd, card),
      setName: setSpelling(rnd, card.set),
      condition: condition.text,
      price: toMajor(minor),
      currency: eur ? 'EUR' : 'USD',
      quantity,
      sku: x < 0.5 ? `${card.set.setId.toUpperCase()}-${card.number}-${condition.text.replace(/\W+/g, '').toUpperCase()}` : null,
      cardNumber: x < 0.7 ? card.number : null,
      notes: rnd() < 0.02 ? pick(rnd, ['1st edition', 'shadowless', 'light whitening on back', 'off-center']) : null,
      // For analysis only (not sent): the card it is.
      _cardId: card.cardId,
    };
  }

  function buyerRequest() {
    const card = nextCard();
    const condition = requestCondition(rnd);
    const eur = rnd() < 0.03;
    const minor = priced(rnd, card, condition.factor * (eur ? 0.92 : 1), 0.7, 1.4);
    return {
      cardName: cardSpelling(rnd, card),
      setName: setSpelling(rnd, card.set),
      condition: condition.text,
      maxPrice: toMajor(minor),
      currency: eur ? 'EUR' : 'USD',
      source: pick(rnd, ['bench', 'storefront', 'discord', 'email']),
      _cardId: card.cardId,
    };
  }

  /**
   * A raw intake row as a seller's spreadsheet export gives it. About `errorRate` of the rows
   * carry an error the intake must refuse (no price, an unparsable price, quantity 0, no condition).
   */
  function intakeRow(errorRate = 0.01) {
    const item = inventoryItem();
    const row = {
      cardName: item.cardName,
      setName: item.setName,
      condition: item.condition,
      price:
        item.currency === 'EUR'
          ? pick(rnd, [`${item.price.toFixed(2).replace('.', ',')} €`, `€${item.price.toFixed(2)}`])
          : pick(rnd, [item.price.toFixed(2), `$${item.price.toFixed(2)}`, item.price]),
      currency: item.currency === 'EUR' ? 'EUR' : rnd() < 0.5 ? 'USD' : undefined,
      quantity: rnd() < 0.2 ? String(item.quantity) : item.quantity,
      sku: item.sku ?? undefined,
      cardNumber: item.cardNumber ?? undefined,
      notes: item.notes ?? undefined,
    };
    let error = null;
    if (rnd() < errorRate) {
      error = weighted(rnd, [[60, 'missing price'], [15, 'unparsable price'], [15, 'quantity 0'], [10, 'missing condition']]);
      if (error === 'missing price') delete row.price;
      else if (error === 'unparsable price') row.price = 'call';
      else if (error === 'quantity 0') row.quantity = 0;
      else delete row.condition;
    }
    for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
    return { row, error, cardId: item._cardId };
  }

  return { inventoryItem, buyerRequest, intakeRow, random: rnd };
}

/** The body of `POST /api/v1/buyer-requests` for a generated request (the analysis field dropped). */
export function requestBody(request) {
  const { _cardId, ...body } = request;
  return body;
}
