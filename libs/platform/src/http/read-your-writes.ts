// A write answers once the read models have applied it, so the client's next GET sees it.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config';
import { ProjectionRunner } from '../projections/projection-runner';
import { EVENTUAL_READ_STORE, READ_STORE, type ReadStore } from '../read-store/read-store.port';
import { RecordedNotVisibleError, type StorageFaultKind, storageFaultOf } from '../sqlite/storage-fault';

@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger('read-your-writes');

  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENTUAL_READ_STORE) private readonly eventualReads: ReadStore,
  ) {}

  /**
   * Waits (bounded) until every projection has applied the log up to `position`. When they do not
   * in time because a read store has no room (or is read-only, or damaged), throws a
   * RecordedNotVisibleError; a read model that is only slow delays the write's visibility, which
   * is logged and answered (the write is durable).
   */
  async settle(position: number): Promise<void> {
    if (position <= 0) return;
    const ok = await this.runner.waitFor(position, this.config.READ_YOUR_WRITES_TIMEOUT_MS);
    if (ok) return;
    const fault = (await this.faultOf(this.reads)) ?? (this.eventualReads === this.reads ? undefined : await this.faultOf(this.eventualReads));
    if (fault !== undefined) throw new RecordedNotVisibleError(fault, position);
    this.logger.warn(`read models did not reach position ${position} in time`);
  }

  private async faultOf(store: ReadStore): Promise<StorageFaultKind | undefined> {
    try {
      await store.ping();
      return undefined;
    } catch (error) {
      return storageFaultOf(error);
    }
  }
}
