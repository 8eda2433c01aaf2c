// Tradegraph's read models follow the log on the eventual lane (writes do not wait for them), so
// each tradegraph read first waits — bounded — until they have applied the log as it stands when
// the read arrives: an answer reflects every write answered before it was asked.
import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, ProjectionRunner } from '@app/platform';

import { tradegraphProjection } from './tradegraph.projection';

@Injectable()
export class TradegraphFreshness {
  private readonly logger = new Logger('tradegraph');

  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async settle(): Promise<void> {
    const ok = await this.runner.waitForHead([tradegraphProjection.name], this.config.READ_YOUR_WRITES_TIMEOUT_MS);
    // Still an answer: the read models as far as they got (a rebuild in progress, a lagging worker).
    if (!ok) this.logger.warn('tradegraph read models are behind the log; answering with what they hold');
  }
}
