// The list convention of every collection route: `?limit=1..100 (default 20)&cursor=<opaque>` →
// `{ data, nextCursor }`.
import { z } from 'zod';

import type { Page } from '../read-store/read-store.port';

/** An instant in a query or body: ISO 8601 with a zone (`Z` or an offset). */
export const isoInstant = z.iso.datetime({ offset: true });

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Page size, 1 to 100.' }),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({ description: 'The `nextCursor` of the previous page; omit for the first page.' }),
});

export type PaginationQuery = z.output<typeof paginationQuery>;

export interface ListResponse<T> {
  data: T[];
  nextCursor: string | null;
}

/** The schema of a list answer around its item schema (the OpenAPI document shows it). */
export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass it back as `cursor` for the next page; null on the last page.' }),
  });
}

export function toListResponse<D, T>(page: Page<D>, map: (doc: D) => T): ListResponse<T> {
  return { data: page.items.map(map), nextCursor: page.nextCursor };
}
