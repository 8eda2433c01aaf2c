// Builds the catalogue's indexes at once (see lazy-index.ts): what the API does before it listens,
// so that the first buyer request or item after a start does not pay for them.
import { catalogueCardKeys } from './card-catalogue';
import { keysWithLettersOf } from './card-name-neighbours';
import { findSet } from './set-name';

export function indexCatalogue(): void {
  catalogueCardKeys();
  keysWithLettersOf('');
  findSet('base');
}
