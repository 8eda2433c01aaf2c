// The keys that sign trust credentials, as verifiers need them: the active one first, then every
// retired one a still-valid credential may name. The service's first key is made on first need —
// asking for the keys is such a need (a verifier may come before the first credential).
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { type ListedKey, TrustKeyring } from './trust-keyring';

export class ListSigningKeysQuery extends Query<ListedKey[]> {}

@QueryHandler(ListSigningKeysQuery)
export class ListSigningKeysHandler implements IQueryHandler<ListSigningKeysQuery> {
  constructor(private readonly keyring: TrustKeyring) {}

  async execute(): Promise<ListedKey[]> {
    const keys = await this.keyring.listed();
    if (keys.length > 0) return keys;
    await this.keyring.signingKey();
    return this.keyring.listed();
  }
}

export const KEY_QUERY_HANDLERS = [ListSigningKeysHandler];
