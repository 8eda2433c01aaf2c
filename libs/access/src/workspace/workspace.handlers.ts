// Creating a workspace: claim the slug (unique by construction), create the workspace, and give it
// a first full-access API key. Setting a workspace's own rate limits.
import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  ID_GENERATOR,
  type IdGenerator,
} from '@app/platform';
import { DomainError, handleCommand, handleCommands } from '@app/platform/domain';

import { CreateApiKeyCommand } from '../api-key/api-key.handlers';
import { type LimitsChange, workspaceDecider } from './workspace.decider';
import { parseWorkspaceEvent, slugStream, workspaceStream } from './workspace.events';

const workspaceAggregate = { decider: workspaceDecider, parseEvent: parseWorkspaceEvent };

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;

export interface CreatedWorkspace {
  workspace: { id: string; name: string; slug: string };
  apiKey: string;
}

export class CreateWorkspaceCommand extends Command<CreatedWorkspace> {
  constructor(
    readonly name: string,
    readonly slug: string,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(CreateWorkspaceCommand)
export class CreateWorkspaceHandler implements ICommandHandler<CreateWorkspaceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly commands: CommandBus,
  ) {}

  async execute(command: CreateWorkspaceCommand): Promise<CreatedWorkspace> {
    const name = command.name.trim();
    const issues = [];
    if (name.length === 0 || name.length > 100) issues.push({ path: 'name', message: 'must be 1 to 100 characters' });
    if (!SLUG.test(command.slug)) {
      issues.push({ path: 'slug', message: 'must be 1 to 48 lowercase letters, digits or inner dashes' });
    }
    if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', `Invalid workspace: ${issues[0].path} ${issues[0].message}`, { issues });

    const workspaceId = this.ids.next('ws');
    // The slug claim and the workspace are one append. The slug goes first: a store without
    // multi-stream transactions (EventStoreDB) can then only leave a claim without its workspace,
    // never a workspace whose slug someone else holds.
    await handleCommands(this.events, { workspaceId, actor: command.actor }, async (tx) => {
      const slug = await tx.load(slugStream(command.slug), workspaceAggregate, { anyWorkspace: true });
      tx.decide(slug, { type: 'ClaimSlug', slug: command.slug, workspaceId });
      const workspace = tx.create(workspaceStream(workspaceId), workspaceAggregate);
      tx.decide(workspace, { type: 'CreateWorkspace', workspaceId, name, slug: command.slug, now: this.clock.now() });
    });
    const key = await this.commands.execute(new CreateApiKeyCommand(workspaceId, 'Default full-access key', [], command.actor));
    return { workspace: { id: workspaceId, name, slug: command.slug }, apiKey: key.secret };
  }
}

export class SetWorkspaceLimitsCommand extends Command<{ position: number | null }> {
  constructor(
    readonly workspaceId: string,
    readonly limits: LimitsChange,
    readonly actor: string,
  ) {
    super();
  }
}

@CommandHandler(SetWorkspaceLimitsCommand)
export class SetWorkspaceLimitsHandler implements ICommandHandler<SetWorkspaceLimitsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: SetWorkspaceLimitsCommand): Promise<{ position: number | null }> {
    const result = await handleCommand(
      this.events,
      workspaceStream(command.workspaceId),
      workspaceAggregate,
      { type: 'SetWorkspaceLimits', workspaceId: command.workspaceId, limits: command.limits, now: this.clock.now() },
      { workspaceId: command.workspaceId, actor: command.actor },
    );
    return { position: result.position };
  }
}

export const WORKSPACE_COMMAND_HANDLERS = [CreateWorkspaceHandler, SetWorkspaceLimitsHandler];
