import { fold } from '@app/platform/domain';

import { inventoryDecider } from './inventory.decider';
import { normalizeListingText, resolvePatch } from './inventory.normalization';

const now = new Date('2026-03-01T10:00:00.000Z');

function listed(cardName: string, setName: string) {
  const typed = { cardName, setName, condition: 'NM' };
  const normalized = normalizeListingText(typed);
  const events = inventoryDecider.decide(
    {
      type: 'CreateInventoryItem',
      item: {
        inventoryItemId: 'inv_1',
        ...normalized.display,
        priceMinor: 1000,
        currency: 'USD',
        quantity: 1,
        status: 'available',
        sku: null,
        cardNumber: null,
        notes: null,
        match: normalized.match,
        input: typed,
        ingestion: null,
      },
      now,
    },
    inventoryDecider.initialState,
  );
  return fold(inventoryDecider, events);
}

describe('inventory listing normalization', () => {
  it('corrects a typed name against the set, in the display form, the identity and the report', () => {
    const normalized = normalizeListingText({ cardName: 'Chairzard', setName: 'Base', condition: 'NM' });
    expect(normalized.display.cardName).toBe('Charizard');
    expect(normalized.match.matchKey).toBe('base1|charizard');
    expect(normalized.report.cardName).toEqual({
      input: 'Chairzard',
      changes: ['corrected "Chairzard" to "Charizard" (one letter off)'],
      confidence: 0.8,
      warnings: [],
      recognized: true,
    });
  });

  it('a patch of the set reads a name kept as given again: corrected against the new set, shown and reported', () => {
    // Nidorina and Nidorino are both printed in HS—Triumphant: kept as typed; Jungle prints only Nidorina.
    const state = listed('Nidorine', 'HS—Triumphant');
    const { changes, normalization } = resolvePatch({ setName: 'Jungle' }, state);
    expect(changes).toMatchObject({ cardName: 'Nidorina', setName: 'Jungle', input: { setName: 'Jungle' }, match: { matchKey: 'base2|nidorina' } });
    expect(normalization.cardName?.changes).toEqual(['corrected "Nidorine" to "Nidorina" (one letter off)']);
    expect(Object.keys(normalization).sort()).toEqual(['cardName', 'setName']);
  });

  it('a patch leaves the display forms of the fields it does not change, when they read the same', () => {
    const { changes, normalization } = resolvePatch({ condition: 'LP' }, listed('Charizard', 'Base'));
    expect(changes.cardName).toBeUndefined();
    expect(changes.setName).toBeUndefined();
    expect(changes).toMatchObject({ condition: 'Lightly Played', input: { condition: 'LP' } });
    expect(Object.keys(normalization)).toEqual(['condition']);
  });
});
