// Query handlers for API keys: what the API shows of them (never the secret, nor its hash).
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { getOwned, type Page, READ_STORE, type ReadStore } from '@app/platform';

import { API_KEYS, type ApiKeyDoc } from './api-key.projection';
import { ApiKeyUsage } from './api-key.usage';

export interface ApiKeyView {
  id: string;
  name: string;
  scopes: string[];
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** A key as answered, and its version (its stream's revision: the ETag). */
export interface VersionedApiKey {
  key: ApiKeyView;
  revision: number;
}

export class ListApiKeysQuery extends Query<Page<ApiKeyView>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly usage: ApiKeyUsage,
  ) {}

  async execute({ workspaceId, limit, cursor }: ListApiKeysQuery): Promise<Page<ApiKeyView>> {
    const page = await this.reads
      .collection<ApiKeyDoc>(API_KEYS)
      .find({ workspaceId }, { sort: [['createdAt', -1]], limit, after: cursor });
    const lastUsed = await this.usage.lastUsed(page.items.map((k) => k.id));
    return { nextCursor: page.nextCursor, items: page.items.map((k) => toView(k, lastUsed.get(k.id))) };
  }
}

/** The API key of this workspace, or NOT_FOUND. */
export class GetApiKeyQuery extends Query<VersionedApiKey> {
  constructor(
    readonly workspaceId: string,
    readonly keyId: string,
  ) {
    super();
  }
}

@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly usage: ApiKeyUsage,
  ) {}

  async execute({ workspaceId, keyId }: GetApiKeyQuery): Promise<VersionedApiKey> {
    const doc = await getOwned(this.reads.collection<ApiKeyDoc>(API_KEYS), workspaceId, keyId, 'API key');
    return { key: toView(doc, (await this.usage.lastUsed([keyId])).get(keyId)), revision: doc.revision };
  }
}

/** A key a write just decided on (its document from the write itself), as the API shows it. */
export class AnswerApiKeyQuery extends Query<ApiKeyView> {
  constructor(readonly key: ApiKeyDoc) {
    super();
  }
}

@QueryHandler(AnswerApiKeyQuery)
export class AnswerApiKeyHandler implements IQueryHandler<AnswerApiKeyQuery> {
  constructor(private readonly usage: ApiKeyUsage) {}

  async execute({ key }: AnswerApiKeyQuery): Promise<ApiKeyView> {
    return toView(key, (await this.usage.lastUsed([key.id])).get(key.id));
  }
}

/** What the API shows of a key: never the secret, nor its hash. */
function toView(k: ApiKeyDoc, lastUsedAt: string | undefined): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    status: k.status,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt,
    lastUsedAt: lastUsedAt ?? null,
  };
}

export const API_KEY_QUERY_HANDLERS = [ListApiKeysHandler, GetApiKeyHandler, AnswerApiKeyHandler];
