// A write answers once the read models have applied it, so the client's next GET sees it.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config';
import { ProjectionRunner } from '../projections/projection-runner';

@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger('read-your-writes');

  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Waits (bounded) until every projection has applied the log up to `position`. */
  async settle(position: number): Promise<void> {
    if (position <= 0) return;
    const ok = await this.runner.waitFor(position, this.config.READ_YOUR_WRITES_TIMEOUT_MS);
    // The write is durable either way; a lagging read model only delays its visibility.
    if (!ok) this.logger.warn(`read models did not reach position ${position} in time`);
  }
}
