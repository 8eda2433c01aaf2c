import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { AccessModule } from '@app/access';

import { PortalController } from './portal.http';

/** The web portal: its page, assets and session routes (the HTTP app only). */
@Module({ imports: [CqrsModule, AccessModule], controllers: [PortalController] })
export class PortalModule {}
