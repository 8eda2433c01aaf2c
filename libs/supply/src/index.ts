// @app/supply — the supply context's contract: inventory items and the intake sessions that fill
// them. Everything else in this library is its own business.

export { SupplyModule } from './supply.module';
export { IntakeModule, IntakeReadModelModule } from './intake/intake.module';

// The stored contract others may read: stream ids, event types and parsers.
export {
  INVENTORY_EVENT_TYPES,
  INVENTORY_STATUSES,
  type InventoryEvent,
  type InventoryStatus,
  inventoryStream,
  parseInventoryEvent,
} from './inventory/inventory.events';

// The commands trading sends: reserve, release, sell and transfer an item's units
// (loadReservableItem, then the item's methods), inside trading's own write transaction.
export { loadReservableItem, type ReservableItem } from './inventory/inventory.reservation';

// Ports: the read-only view of inventory others read, and what intake asks matching (provided by it).
export {
  type HeldReservationPage,
  type HeldReservationView,
  INVENTORY_READER,
  type InventoryItemView,
  type InventoryReader,
  type WantedItem,
} from './inventory/inventory-reader.port';
export { INTAKE_MATCHING, type IntakeMatching } from './intake/intake-matching.port';

// The command supply accepts from automations: change an item (its price).
export { UpdateInventoryItemCommand } from './inventory/inventory.handlers';

// The command the CLI's demo seed sends to list stock, and the query it finds earlier demo stock with.
export { CreateInventoryItemCommand } from './inventory/inventory.handlers';
export { ListInventoryItemsQuery } from './inventory/inventory.queries';

// Public events (webhooks): catalogue entries and their data.
export { INVENTORY_PUBLIC_EVENTS } from './inventory/inventory.public';
