// Command handlers for API keys, and the authentication check the guard uses on every request.
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

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
  READ_STORE,
  type ReadStore,
  type AuthContext,
} from '@app/platform';

import { apiKeyDecider } from './api-key.decider';
import { apiKeyStream, parseApiKeyEvent } from './api-key.events';
import { API_KEYS, type ApiKeyDoc } from './api-key.projection';
import { generateSecret, hashSecret, keyIdOf, secretMatches } from './api-key.secret';

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

export const API_KEY_COMMAND_HANDLERS = [CreateApiKeyHandler];

/** Resolves a presented secret to who is calling, or null. */
@Injectable()
export class ApiKeyAuthenticator {
  // A hash that no secret matches: used when the key id is unknown, so both paths do the same work.
  private static readonly NO_MATCH = '0'.repeat(64);

  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async authenticate(secret: string): Promise<AuthContext | null> {
    const keyId = keyIdOf(secret);
    const doc = keyId ? await this.reads.collection<ApiKeyDoc>(API_KEYS).get(keyId) : null;
    const matches = secretMatches(secret, doc?.secretHash ?? ApiKeyAuthenticator.NO_MATCH);
    if (!doc || !matches || doc.status !== 'active') return null;
    return { workspaceId: doc.workspaceId, keyId: doc.id, scopes: doc.scopes };
  }
}
