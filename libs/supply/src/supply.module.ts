import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { INVENTORY_HANDLERS } from './inventory/inventory.handlers';
import { InventoryController } from './inventory/inventory.http';
import { inventoryProjection } from './inventory/inventory.projection';

@Module({
  imports: [CqrsModule],
  controllers: [InventoryController],
  providers: [...INVENTORY_HANDLERS],
})
export class SupplyModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(inventoryProjection);
  }
}
