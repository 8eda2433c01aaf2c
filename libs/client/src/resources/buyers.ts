// buyers: the buyers who left want lists through the widget — erasing one's personal data (scope
// `admin`): their data key is destroyed, so their contacts no longer open anywhere.
import type { ErasedPersonalData } from '../types';
import { type RequestOptions, Resource } from './resource';

export class Buyers extends Resource {
  /**
   * DELETE /buyers/{id}/personal-data: crypto-shredding — the buyer's requests stay, with
   * `contact: null` and `contactErased: true`. Erasing again answers the first erasure.
   */
  erasePersonalData(id: string, options?: RequestOptions): Promise<ErasedPersonalData> {
    return this.call('/api/v1/buyers/{id}/personal-data', 'delete', { path: { id } }, options);
  }
}
