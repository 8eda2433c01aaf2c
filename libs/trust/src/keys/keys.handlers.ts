// Rotating the signing key (the CLI's `trust rotate-key`): a new generated key signs from now on;
// the old one is retired, still listed while a credential it signed may be valid.
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { TrustKeyring } from './trust-keyring';

export class RotateSigningKeyCommand extends Command<{ kid: string; retired: string | null }> {}

@CommandHandler(RotateSigningKeyCommand)
export class RotateSigningKeyHandler implements ICommandHandler<RotateSigningKeyCommand> {
  constructor(private readonly keyring: TrustKeyring) {}

  execute(): Promise<{ kid: string; retired: string | null }> {
    return this.keyring.rotate();
  }
}

export const KEY_COMMAND_HANDLERS = [RotateSigningKeyHandler];
