// The list convention of every collection route: `?limit=1..100 (default 20)&cursor=<opaque>` →
// `{ data, nextCursor }`.
import { z } from 'zod';

import type { Page } from '../read-store/read-store.port';

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(512).optional(),
});

export type PaginationQuery = z.output<typeof paginationQuery>;

export interface ListResponse<T> {
  data: T[];
  nextCursor: string | null;
}

export function toListResponse<D, T>(page: Page<D>, map: (doc: D) => T): ListResponse<T> {
  return { data: page.items.map(map), nextCursor: page.nextCursor };
}
