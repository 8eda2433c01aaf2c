// Command handlers for API keys: create (the secret is shown once; only its hash is stored) and revoke.
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, ID_GENERATOR, type IdGenerator, isScope } from '@app/platform';
import { DomainError, handleCommand } from '@app/platform/domain';

import { apiKeyDecider } from './api-key.decider';
import { apiKeyStream, parseApiKeyEvent } from './api-key.events';
import { generateSecret, hashSecret } from './api-key.secret';

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
