// Command handlers for API keys, and the authentication check the guard uses on every request.
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import {
  CLOCK,
  type Clock,
  DomainError,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  ID_GENERATOR,
  type IdGenerator,
  isScope,
  type Page,
  READ_STORE,
  type ReadStore,
  type AuthContext,
} from '@app/platform';

import { apiKeyDecider } from './api-key.decider';
import { apiKeyStream, parseApiKeyEvent } from './api-key.events';
import { API_KEYS, type ApiKeyDoc } from './api-key.projection';
import { generateSecret, hashSecret, keyIdOf, secretMatches } from './api-key.secret';
import { ApiKeyUsage } from './api-key.usage';

export const apiKeyAggregate = { decider: apiKeyDecider, parseEvent: parseApiKeyEvent };

export interface CreatedApiKey {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  /** Shown once, never stored. */
  secret: string;
  position: number;
}

/** Blank scopes mean full access (as in the spec): stored explicitly as `admin`. */
export function normalizeScopes(scopes: readonly string[]): string[] {
  const cleaned = [...new Set(scopes.map((s) => s.trim()).filter((s) => s.length > 0))];
  const unknown = cleaned.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new DomainError('VALIDATION_FAILED', `Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      issues: unknown.map((s) => ({ path: 'scopes', message: `unknown scope "${s}"` })),
    });
  }
  return cleaned.length === 0 ? ['admin'] : cleaned;
}

export class CreateApiKeyCommand extends Command<CreatedApiKey> {
  constructor(
    readonly workspaceId: string,
    readonly name: string,
    readonly scopes: readonly string[],
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute(command: CreateApiKeyCommand): Promise<CreatedApiKey> {
    const name = command.name.trim();
    if (name.length === 0 || name.length > 100) {
      throw new DomainError('VALIDATION_FAILED', 'An API key needs a name of 1 to 100 characters', {
        issues: [{ path: 'name', message: 'must be 1 to 100 characters' }],
      });
    }
    const scopes = normalizeScopes(command.scopes);
    const keyId = this.ids.next('key');
    const secret = generateSecret(keyId);
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      apiKeyStream(keyId),
      apiKeyAggregate,
      { type: 'CreateApiKey', keyId, workspaceId: command.workspaceId, name, scopes, secretHash: hashSecret(secret), now },
      { workspaceId: command.workspaceId, actor: command.actor },
      { newStream: true },
    );
    return { id: keyId, name, scopes, createdAt: now.toISOString(), secret, position: result.position ?? 0 };
  }
}

export class RevokeApiKeyCommand extends Command<{ position: number; revokedAt: string }> {
  constructor(
    readonly workspaceId: string,
    readonly keyId: string,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, keyId, actor }: RevokeApiKeyCommand): Promise<{ position: number; revokedAt: string }> {
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      apiKeyStream(keyId),
      apiKeyAggregate,
      { type: 'RevokeApiKey', keyId, workspaceId, now },
      { workspaceId, actor },
    );
    return { position: result.position ?? 0, revokedAt: now.toISOString() };
  }
}

export const API_KEY_COMMAND_HANDLERS = [CreateApiKeyHandler, RevokeApiKeyHandler];

export interface ApiKeyView {
  id: string;
  name: string;
  scopes: string[];
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
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

export class GetApiKeyQuery extends Query<ApiKeyView | null> {
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

  async execute({ workspaceId, keyId }: GetApiKeyQuery): Promise<ApiKeyView | null> {
    const doc = await this.reads.collection<ApiKeyDoc>(API_KEYS).get(keyId);
    // Another workspace's key is answered exactly like a missing one.
    if (!doc || doc.workspaceId !== workspaceId) return null;
    return toView(doc, (await this.usage.lastUsed([keyId])).get(keyId));
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

export const API_KEY_QUERY_HANDLERS = [ListApiKeysHandler, GetApiKeyHandler];

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
   * request on. Measured: reading it on every request cost ~55 µs of a ~330 µs GET.
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
