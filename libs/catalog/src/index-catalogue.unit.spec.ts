// indexCatalogue builds every index normalization reads, so nothing normalized afterwards builds one.
import { catalogueIndexesBuilt, indexCatalogue, normalizeListing, resolveCardName, similarCardNames } from '@app/catalog';

describe('indexCatalogue', () => {
  it('builds the indexes once, and a listing of any kind normalized afterwards builds none', () => {
    expect(catalogueIndexesBuilt()).toBe(0);
    indexCatalogue();
    const built = catalogueIndexesBuilt();
    expect(built).toBe(3);
    indexCatalogue();
    const listings = [
      { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint' },
      { cardName: 'charzard', setName: 'BS', condition: 'NM-M' },
      { cardName: 'mew two', setName: 'base set 2', condition: 'PSA 9' },
      { cardName: 'Zekrom GX', setName: 'no such set', condition: '' },
    ];
    for (const listing of listings) normalizeListing(listing);
    resolveCardName('pikachuu', undefined);
    similarCardNames('charizard');
    expect(catalogueIndexesBuilt()).toBe(built);
  });
});
