// Query handlers for intake sessions: read models only, always scoped to the caller's workspace.
import { Inject, Logger } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';

import { APP_CONFIG, type AppConfig, type Filter, findOwned, getOwned, type Page, ProjectionRunner, READ_STORE, type ReadStore } from '@app/platform';

import {
  INGESTION_PUSHED_ITEMS,
  INGESTION_ROWS,
  type IngestionPushedItemsDoc,
  type IngestionRowDoc,
  ingestionRowsProjection,
  pushedItemsId,
} from './intake-rows.projection';
import type { RowStatus } from './intake.events';
import { INGESTION_SESSIONS, type IngestionSessionDoc } from './intake.projection';

/** A row as read: its document and what the push made of it. */
export interface IngestionRowView extends IngestionRowDoc {
  /** The item the push created from the row; null before the push and for skipped rows. */
  inventoryItemId: string | null;
  /** Why the push skipped a row without errors (the inventory refused it); else null. */
  pushError: string | null;
}


export class GetIngestionSessionQuery extends Query<IngestionSessionDoc> {
  constructor(
    readonly workspaceId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetIngestionSessionQuery)
export class GetIngestionSessionHandler implements IQueryHandler<GetIngestionSessionQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, id }: GetIngestionSessionQuery): Promise<IngestionSessionDoc> {
    return getOwned(this.reads.collection<IngestionSessionDoc>(INGESTION_SESSIONS), workspaceId, id, 'ingestion session');
  }
}

export class ListIngestionSessionsQuery extends Query<Page<IngestionSessionDoc>> {
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

@QueryHandler(ListIngestionSessionsQuery)
export class ListIngestionSessionsHandler implements IQueryHandler<ListIngestionSessionsQuery> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  execute({ workspaceId, limit, cursor }: ListIngestionSessionsQuery): Promise<Page<IngestionSessionDoc>> {
    return this.reads
      .collection<IngestionSessionDoc>(INGESTION_SESSIONS)
      .find({ workspaceId }, { sort: [['createdAt', -1]], limit, after: cursor });
  }
}

/** A page of a session's rows in row order; null when the workspace has no such session. */
export class ListIngestionRowsQuery extends Query<Page<IngestionRowView> | null> {
  constructor(
    readonly workspaceId: string,
    readonly sessionId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly status?: RowStatus,
  ) {
    super();
  }
}

@QueryHandler(ListIngestionRowsQuery)
export class ListIngestionRowsHandler implements IQueryHandler<ListIngestionRowsQuery> {
  private readonly logger = new Logger('intake');

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'READ_YOUR_WRITES_TIMEOUT_MS'>,
  ) {}

  async execute({ workspaceId, sessionId, limit, cursor, status }: ListIngestionRowsQuery): Promise<Page<IngestionRowView> | null> {
    const session = await findOwned(this.reads.collection<IngestionSessionDoc>(INGESTION_SESSIONS), workspaceId, sessionId);
    if (!session) return null;
    // The session document is the write's own (current at once); the rows follow the log on their
    // own: wait — that model alone, bounded, and only while it lags — until they show what it counts.
    if (session.position !== undefined && !(await this.runner.waitFor(session.position, this.config.READ_YOUR_WRITES_TIMEOUT_MS, [ingestionRowsProjection.name]))) {
      this.logger.warn(`the intake rows are behind session ${sessionId}; answering with what they hold`);
    }
    const filter: Filter = status ? { sessionId, status, workspaceId } : { sessionId, workspaceId };
    const page = await this.reads.collection<IngestionRowDoc>(INGESTION_ROWS).find(filter, { sort: [['row', 1]], limit, after: cursor });
    const chunkIds = [...new Set(page.items.map((row) => pushedItemsId(sessionId, row.row)))];
    const chunks = session.push ? await this.reads.collection<IngestionPushedItemsDoc>(INGESTION_PUSHED_ITEMS).getMany(chunkIds) : [];
    const items = new Map<string, string>(chunks.flatMap((chunk) => Object.entries(chunk.items)));
    const rejections = new Map((session.push?.rejections ?? []).map((r) => [r.row, r.message]));
    return {
      items: page.items.map((row) => ({
        ...row,
        inventoryItemId: items.get(String(row.row)) ?? null,
        pushError: rejections.get(row.row) ?? null,
      })),
      nextCursor: page.nextCursor,
    };
  }
}

export const INGESTION_QUERY_HANDLERS = [GetIngestionSessionHandler, ListIngestionSessionsHandler, ListIngestionRowsHandler];
