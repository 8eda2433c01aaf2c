// inventory: the seller's items — list, read, change (price, quantity, status), delete.
import type { PagePromise } from '../core/pagination';
import type {
  CreatedInventoryItem,
  DeletedInventoryItem,
  InventoryItem,
  InventoryItemCreateParams,
  InventoryItemListParams,
  InventoryItemUpdateParams,
  UpdatedInventoryItem,
} from '../types';
import { type RequestOptions, Resource } from './resource';

export class Inventory extends Resource {
  /** POST /inventory: names normalized against the catalogue (the answer says how); matched against open requests. */
  create(body: InventoryItemCreateParams, options?: RequestOptions): Promise<CreatedInventoryItem> {
    return this.call('/api/v1/inventory', 'post', { body }, options);
  }

  /** GET /inventory. */
  list(query?: InventoryItemListParams, options?: RequestOptions): PagePromise<InventoryItem> {
    return this.listRoute('/api/v1/inventory', { query }, options);
  }

  /** GET /inventory/{id}. */
  retrieve(id: string, options?: RequestOptions): Promise<InventoryItem> {
    return this.call('/api/v1/inventory/{id}', 'get', { path: { id } }, options);
  }

  /** PATCH /inventory/{id}. */
  update(id: string, body: InventoryItemUpdateParams, options?: RequestOptions): Promise<UpdatedInventoryItem> {
    return this.call('/api/v1/inventory/{id}', 'patch', { path: { id }, body }, options);
  }

  /** DELETE /inventory/{id}: answers `{ id, deleted: true }`. */
  delete(id: string, options?: RequestOptions): Promise<DeletedInventoryItem> {
    return this.call('/api/v1/inventory/{id}', 'delete', { path: { id } }, options);
  }
}
