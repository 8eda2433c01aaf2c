import { Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';

import { ProjectionRunner } from '@app/platform';

import { INVENTORY_READER } from './inventory/inventory-reader.port';
import { INVENTORY_COMMAND_HANDLERS } from './inventory/inventory.handlers';
import { InventoryController } from './inventory/inventory.http';
import { inventoryProjection, inventoryReservationsProjection } from './inventory/inventory.projection';
import { INVENTORY_QUERY_HANDLERS, InventoryReadModel } from './inventory/inventory.queries';

@Module({
  imports: [CqrsModule],
  controllers: [InventoryController],
  providers: [
    ...INVENTORY_COMMAND_HANDLERS,
    ...INVENTORY_QUERY_HANDLERS,
    InventoryReadModel,
    { provide: INVENTORY_READER, useExisting: InventoryReadModel },
  ],
  exports: [INVENTORY_READER],
})
export class SupplyModule implements OnModuleInit {
  constructor(private readonly runner: ProjectionRunner) {}

  onModuleInit(): void {
    this.runner.register(inventoryProjection, inventoryReservationsProjection);
  }
}
