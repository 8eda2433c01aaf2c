// Command handlers for API keys: create (the secret is shown once; only its hash is stored) and
// revoke. Each answers the key's document as its own write left it (the read model is inline).
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, type InlineDocuments, InlineProjections, isScope } from '@app/platform';
import { DomainError, handleCommand } from '@app/platform/domain';

import { apiKeyDecider } from './api-key.decider';
import { apiKeyStream, parseApiKeyEvent } from './api-key.events';
import { type ApiKeyDoc, apiKeyProjection } from './api-key.projection';
import { generateSecret, hashSecret } from './api-key.secret';

export const apiKeyAggregate = { decider: apiKeyDecider, parseEvent: parseApiKeyEvent };

export interface CreatedApiKey {
  id: string;
  name: string;
  scopes: string[];
  status: 'active';
  createdAt: string;
  /** Shown once, never stored. */
  secret: string;
  /** The key's stream revision (its version: the answer's ETag). */
  revision: number;
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
    private readonly inline: InlineProjections,
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
    const key = await keyAfter(this.inline, keyId, result.documents);
    return { id: key.id, name: key.name, scopes: key.scopes, status: 'active', createdAt: key.createdAt, secret, revision: key.revision };
  }
}

/** The key after the revocation; revoking it again changes nothing and answers it as the log holds it. */
export class RevokeApiKeyCommand extends Command<ApiKeyDoc> {
  constructor(
    readonly workspaceId: string,
    readonly keyId: string,
    readonly actor: string,
    /** `If-Match`: the key's revision the revocation was decided on. */
    readonly ifMatch?: number,
  ) {
    super();
  }
}

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly inline: InlineProjections,
  ) {}

  async execute({ workspaceId, keyId, actor, ifMatch }: RevokeApiKeyCommand): Promise<ApiKeyDoc> {
    const now = this.clock.now();
    const result = await handleCommand(
      this.events,
      apiKeyStream(keyId),
      apiKeyAggregate,
      { type: 'RevokeApiKey', keyId, workspaceId, now },
      { workspaceId, actor },
      { ifMatch },
    );
    return keyAfter(this.inline, keyId, result.documents);
  }
}

/** The key's document as the write left it (or, for a write that appended nothing, as the log holds it). */
async function keyAfter(inline: InlineProjections, keyId: string, documents: InlineDocuments | null): Promise<ApiKeyDoc> {
  const doc = await inline.document(apiKeyProjection, apiKeyStream(keyId), documents);
  // The write path just decided on this key: no document is a bug, not a missing key.
  if (!doc) throw new Error(`API key ${keyId} was decided on, yet its read model has no document`);
  return doc;
}

export const API_KEY_COMMAND_HANDLERS = [CreateApiKeyHandler, RevokeApiKeyHandler];
