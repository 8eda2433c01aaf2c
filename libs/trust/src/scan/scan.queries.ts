// A seller's scans per UTC day, from the scan days view.
import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { READ_STORE, type ReadStore } from '@app/platform';

import { SCAN_DAYS, type ScanDayDoc } from './scan.projection';

/** The seller's days with scans from `from` to `to` (YYYY-MM-DD, both included), oldest first. */
export class ListScanDaysQuery extends Query<ScanDayDoc[]> {
  constructor(
    readonly workspaceId: string,
    readonly from: string,
    readonly to: string,
  ) {
    super();
  }
}

@QueryHandler(ListScanDaysQuery)
export class ListScanDaysHandler implements IQueryHandler<ListScanDaysQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ workspaceId, from, to }: ListScanDaysQuery): Promise<ScanDayDoc[]> {
    const page = await this.reads.collection<ScanDayDoc>(SCAN_DAYS).find({ workspaceId, day: { $gte: from, $lte: to } }, { sort: [['day', 1]], limit: 400 });
    return page.items;
  }
}

export const SCAN_QUERY_HANDLERS = [ListScanDaysHandler];
