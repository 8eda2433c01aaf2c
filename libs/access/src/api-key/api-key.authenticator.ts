// The authentication check the guard makes on every request: a presented secret → who is calling.
import { Inject, Injectable } from '@nestjs/common';

import { type AuthContext, READ_STORE, type ReadStore } from '@app/platform';

import { API_KEYS, type ApiKeyDoc } from './api-key.projection';
import { keyIdOf, secretMatches } from './api-key.secret';
import { ApiKeyUsage } from './api-key.usage';

/** Resolves a presented secret to who is calling, or null. */
@Injectable()
export class ApiKeyAuthenticator {
  // A hash that no secret matches: used when the key id is unknown, so both paths do the same work.
  private static readonly NO_MATCH = '0'.repeat(64);
  private static readonly CACHE_LIMIT = 10_000;
  /** Key documents read under `cacheToken`; dropped whole as soon as the read store changes. */
  private readonly cache = new Map<string, ApiKeyDoc>();
  private cacheToken: string | null = null;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly usage: ApiKeyUsage,
  ) {}

  async authenticate(secret: string): Promise<AuthContext | null> {
    const keyId = keyIdOf(secret);
    const doc = keyId ? await this.keyDoc(keyId) : null;
    const matches = secretMatches(secret, doc?.secretHash ?? ApiKeyAuthenticator.NO_MATCH);
    if (!doc || !matches || doc.status !== 'active') return null;
    await this.usage.touch(doc.id);
    return { workspaceId: doc.workspaceId, keyId: doc.id, scopes: doc.scopes };
  }

  /**
   * The key's document, from memory while the read store has not changed since it was read (its
   * change token moves on any commit, in any process), so a revocation still holds from the next
   * request on. Read from the store on every request, it would be a large share of every GET.
   */
  private async keyDoc(keyId: string): Promise<ApiKeyDoc | null> {
    const token = await this.reads.changeToken();
    if (token === null) return this.reads.collection<ApiKeyDoc>(API_KEYS).get(keyId);
    if (token !== this.cacheToken) {
      this.cache.clear();
      this.cacheToken = token;
    }
    const cached = this.cache.get(keyId);
    if (cached) return cached;
    // Read after the token: the document is at least as new as the token says.
    const doc = await this.reads.collection<ApiKeyDoc>(API_KEYS).get(keyId);
    if (doc && this.cacheToken === token) {
      if (this.cache.size >= ApiKeyAuthenticator.CACHE_LIMIT) this.cache.clear();
      this.cache.set(keyId, doc);
    }
    return doc;
  }
}
