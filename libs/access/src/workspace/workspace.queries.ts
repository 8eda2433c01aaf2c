// Reading workspaces: by slug (the CLI) and by id.
import { Inject, Injectable } from '@nestjs/common';

import { READ_STORE, type ReadStore } from '@app/platform';

import { WORKSPACES, type WorkspaceDoc } from './workspace.projection';

/** The workspaces' read model, for the CLI and the rate limiter. */
@Injectable()
export class WorkspaceDirectory {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async bySlug(slug: string): Promise<WorkspaceDoc | null> {
    const page = await this.reads.collection<WorkspaceDoc>(WORKSPACES).find({ slug }, { limit: 1 });
    return page.items[0] ?? null;
  }

  async byId(id: string): Promise<WorkspaceDoc | null> {
    return this.reads.collection<WorkspaceDoc>(WORKSPACES).get(id);
  }
}
