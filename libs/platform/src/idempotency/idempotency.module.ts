// Idempotency: the record store, from configuration, and a periodic purge of expired records.
// Global, because @Idempotent() routes in any module instantiate the interceptor with this store.
import {
  type BeforeApplicationShutdown,
  Global,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
} from '@nestjs/common';

import { CLOCK, type Clock } from '../clock';
import { APP_CONFIG, type AppConfig } from '../config';
import { READ_STORE, type ReadStore } from '../read-store/read-store.port';
import { IdempotencyStore } from './idempotency.store';

const HOUR_MS = 60 * 60 * 1000;
/** Expired records already count as absent; the purge only reclaims their space. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

@Injectable()
class IdempotencyPurger implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('idempotency');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly store: IdempotencyStore) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.purge(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  // Before the stores close (their onApplicationShutdown), so a purge never outlives them.
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private purge(): void {
    this.running = this.running
      .then(() => this.store.purgeExpired())
      .then((n) => {
        if (n > 0) this.logger.log(`purged ${n} expired idempotency keys`);
      })
      .catch((error: unknown) => this.logger.warn(`idempotency purge failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

@Global()
@Module({
  providers: [
    {
      provide: IdempotencyStore,
      inject: [READ_STORE, CLOCK, APP_CONFIG],
      useFactory: (reads: ReadStore, clock: Clock, config: AppConfig) =>
        new IdempotencyStore(reads, clock, {
          ttlMs: config.IDEMPOTENCY_KEY_TTL_HOURS * HOUR_MS,
          leaseMs: config.IDEMPOTENCY_LEASE_MS,
          waitMs: config.IDEMPOTENCY_WAIT_MS,
        }),
    },
    IdempotencyPurger,
  ],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
