// The shared kernel's composition: configuration, clock, ids, the two stores, the projection and
// process-manager runners, the durable timers and the SecretBox that seals secrets at rest, chosen by configuration (embedded SQLite by
// default).
import { join } from 'node:path';

import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { CLOCK, type Clock, SystemClock } from './clock';
import { APP_CONFIG, type AppConfig, workerDuties } from './config';
import { BuyerSeal } from './crypto/buyer-seal';
import { SECRET_BOX, SecretBox } from './crypto/secret-box';
import { loadSecretsKey } from './crypto/secrets-key';
import { EVENT_STORE, type EventStore } from './event-store/event-store.port';
import { ListenUrlRecorder } from './http/public-url';
import { InlineEventStore } from './projections/inline-event-store';
import { InlineProjections } from './projections/inline-projections';
import { SqliteEventStore } from './event-store/sqlite-event-store';
import type { WorkerChannel } from './workers/worker-channel';
import { ID_GENERATOR, UlidIdGenerator } from './ids';
import { ProcessManagerRunner } from './process-managers/process-manager-runner';
import { ProjectionRunner } from './projections/projection-runner';
import { memoryLimiters, mongoLimiters } from './rate-limit/rate-limit-stores';
import { RateLimiter } from './rate-limit/rate-limiter';
import { PublicResponseCache } from './http/public-cache';
import { EVENTUAL_READ_STORE, READ_STORE, type ReadStore } from './read-store/read-store.port';
import { SqliteReadStore } from './read-store/sqlite-read-store';
import { storageFaultOf } from './sqlite/storage-fault';
import type { Storage } from './storage-guard/open-storage';
import { DurableTimers } from './timers/timers';

/** The store itself, beneath EVENT_STORE's inline projections (for the platform's own wiring). */
const STORED_EVENTS = Symbol('STORED_EVENTS');

// The production stores' modules (EventStoreDB's gRPC client, the MongoDB driver) load only when
// configured: every process, the CLI's too, would otherwise spend a large part of its start on them.
export async function createEventStore(config: AppConfig): Promise<EventStore> {
  if (config.EVENT_STORE === 'esdb') {
    const { EsdbEventStore } = await import('./event-store/esdb-event-store');
    return new EsdbEventStore(config.ESDB_CONNECTION_STRING ?? '');
  }
  return new SqliteEventStore(join(config.DATA_DIR, 'events.db'), {
    synchronous: config.SQLITE_SYNCHRONOUS,
    busyTimeoutMs: config.SQLITE_BUSY_TIMEOUT_MS,
    cacheSizeMiB: config.SQLITE_CACHE_MB,
    mmapSizeMiB: config.SQLITE_MMAP_MB,
    walAutocheckpointPages: config.SQLITE_WAL_AUTOCHECKPOINT,
    backgroundCheckpointMs: config.SQLITE_CHECKPOINT_MS,
    pollIntervalMs: config.SUBSCRIPTION_POLL_MS,
  });
}

export async function createReadStore(config: AppConfig): Promise<ReadStore> {
  if (config.READ_STORE === 'mongo') {
    const { MongoReadStore } = await import('./read-store/mongo-read-store');
    return MongoReadStore.connect(config.MONGO_URL ?? '', config.MONGO_DB);
  }
  return openSqliteReadStore(config, 'read.db');
}

/**
 * The eventual lane's store (EVENTUAL_READ_STORE): on SQLite eventual.db beside read.db; on MongoDB
 * the read store itself (documents are locked one by one there, so nothing is gained by another
 * database, and a session's transactions stay within one).
 */
export async function createEventualReadStore(config: AppConfig, reads: ReadStore): Promise<ReadStore> {
  if (config.READ_STORE === 'mongo') return reads;
  return openSqliteReadStore(config, 'eventual.db');
}

function openSqliteReadStore(config: AppConfig, file: string): SqliteReadStore {
  return new SqliteReadStore(join(config.DATA_DIR, file), {
    synchronous: config.SQLITE_SYNCHRONOUS,
    busyTimeoutMs: config.SQLITE_BUSY_TIMEOUT_MS,
    cacheSizeMiB: config.SQLITE_CACHE_MB,
    mmapSizeMiB: config.SQLITE_MMAP_MB,
    walAutocheckpointPages: config.SQLITE_WAL_AUTOCHECKPOINT,
    backgroundCheckpointMs: config.SQLITE_CHECKPOINT_MS,
  });
}

/**
 * Rate-limit counters in memory, or beside the read model in MongoDB when API processes share it
 * (READ_STORE=mongo is what makes the read store a MongoReadStore).
 */
export async function createRateLimiter(reads: ReadStore, config: AppConfig): Promise<RateLimiter> {
  const logger = new Logger('rate-limit');
  let lastLogged = 0;
  const mongo = config.READ_STORE === 'mongo' ? (await import('./read-store/mongo-read-store')).MongoReadStore : null;
  return new RateLimiter(mongo && reads instanceof mongo ? mongoLimiters(reads.database()) : memoryLimiters, {
    onStoreError: (error) => {
      // At most one line a minute: a store outage would otherwise log once per request.
      if (Date.now() - lastLogged < 60_000) return;
      lastLogged = Date.now();
      logger.warn(`rate-limit store failed, requests are let through: ${error instanceof Error ? error.message : String(error)}`);
    },
  });
}

/** What a background failure's log line adds: the stack, except for a full or read-only disk (no bug). */
function details(error: unknown): unknown {
  if (storageFaultOf(error) !== undefined && error instanceof Error) return error.message;
  return error instanceof Error ? error.stack : error;
}

/**
 * Starts the projections, process managers and timers when this process runs the workers; stops
 * them (timers first: their handlers write through the others' stores) and closes everything on
 * shutdown.
 */
@Injectable()
class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('platform');
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENTUAL_READ_STORE) private readonly eventualReads: ReadStore,
    private readonly runner: ProjectionRunner,
    private readonly processManagers: ProcessManagerRunner,
    private readonly timers: DurableTimers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const duties = workerDuties(this.config);
    if (duties.primaryLane || duties.eventualLane) {
      await this.runner.start();
      const lanes = duties.primaryLane && duties.eventualLane ? '' : duties.primaryLane ? ' (read-your-writes lane)' : ' (eventual lane)';
      this.logger.log(`projections running${lanes}: ${this.runner.names().join(', ')}`);
    }
    if (duties.background) {
      await this.processManagers.start();
      if (this.processManagers.names().length > 0) {
        this.logger.log(`process managers running: ${this.processManagers.names().join(', ')}`);
      }
      await this.timers.start();
      if (this.timers.sources().length > 0) {
        this.logger.log(`timers running: sources ${this.timers.sources().join(', ')}; kinds ${this.timers.kinds().join(', ')}`);
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.timers.stop();
    await this.processManagers.stop();
    await this.runner.stop();
    await this.events.close();
    await this.reads.close();
    if (this.eventualReads !== this.reads) await this.eventualReads.close();
  }
}

/** What a composition may put in place of the defaults. */
export interface PlatformOptions {
  /** The one source of time (default: the system clock). The CLI's demo seed passes a simulated one. */
  clock?: Clock;
  /** The link to the other process of a WORKER_MODE=process pair (the API's side or the worker's). */
  workerChannel?: WorkerChannel;
  /**
   * The stores and secrets key opened and checked by openStorage before the application is made
   * (what the API, the worker and the CLI do); without it the module opens its own, unchecked.
   */
  storage?: Storage;
}

/**
 * Links the two processes of a WORKER_MODE=process|background pair: the runners' checkpoints and
 * wake-ups, and (embedded store) each side's appends waking the other's subscriptions at once.
 */
function linkWorker(channel: WorkerChannel, events: EventStore, runner: ProjectionRunner): void {
  runner.link(channel);
  if (!(events instanceof SqliteEventStore)) return; // EventStoreDB pushes new events to subscribers itself
  events.notifier.onNotify(() => channel.send({ t: 'appended' }));
  channel.onMessage((message) => {
    if (message.t === 'appended') events.notifier.wake();
  });
}

@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, options: PlatformOptions = {}): DynamicModule {
    const logger = new Logger('projections');
    return {
      module: PlatformModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        options.clock ? { provide: CLOCK, useValue: options.clock } : { provide: CLOCK, useClass: SystemClock },
        { provide: ID_GENERATOR, useClass: UlidIdGenerator },
        { provide: STORED_EVENTS, useFactory: () => options.storage?.events ?? createEventStore(config) },
        { provide: InlineProjections, inject: [STORED_EVENTS, READ_STORE], useFactory: (events: EventStore, reads: ReadStore) => new InlineProjections(events, reads) },
        // Every writer of the process appends through it: each append brings the inline projections up to date.
        {
          provide: EVENT_STORE,
          inject: [STORED_EVENTS, InlineProjections],
          useFactory: (events: EventStore, inline: InlineProjections) => new InlineEventStore(events, inline),
        },
        { provide: READ_STORE, useFactory: () => options.storage?.reads ?? createReadStore(config) },
        {
          provide: EVENTUAL_READ_STORE,
          inject: [READ_STORE],
          useFactory: (reads: ReadStore) => options.storage?.eventualReads ?? createEventualReadStore(config, reads),
        },
        {
          provide: ProjectionRunner,
          inject: [STORED_EVENTS, READ_STORE, EVENTUAL_READ_STORE, InlineProjections],
          useFactory: (events: EventStore, reads: ReadStore, eventualReads: ReadStore, inline: InlineProjections) => {
            const duties = workerDuties(config);
            const runner = new ProjectionRunner(events, reads, {
              inline,
              eventualStore: eventualReads,
              logger: { error: (message, error) => logger.error(message, details(error)) },
              lanes: { primary: duties.primaryLane, eventual: duties.eventualLane },
            });
            if (options.workerChannel) linkWorker(options.workerChannel, events, runner);
            return runner;
          },
        },
        {
          provide: ProcessManagerRunner,
          inject: [EVENT_STORE, READ_STORE, EVENTUAL_READ_STORE, ProjectionRunner],
          useFactory: (events: EventStore, reads: ReadStore, eventualReads: ReadStore, runner: ProjectionRunner) =>
            // Their checkpoints beside the eventual lane's: the process running them commits there.
            new ProcessManagerRunner(events, eventualReads, runner, {
              formerCheckpoints: eventualReads === reads ? undefined : reads,
              logger: { error: (message, error) => logger.error(message, details(error)) },
            }),
        },
        {
          provide: DurableTimers,
          inject: [EVENT_STORE, READ_STORE, ProjectionRunner, CLOCK],
          useFactory: (events: EventStore, reads: ReadStore, runner: ProjectionRunner, clock: Clock) => {
            const timerLogger = new Logger('timers');
            return new DurableTimers(events, reads, runner, clock, {
              pollMs: config.TIMER_POLL_MS,
              logger: { error: (message) => timerLogger.error(message), warn: (message) => timerLogger.warn(message) },
            });
          },
        },
        PlatformLifecycle,
        // The HTTP server's address, recorded in DATA_DIR for the CLI's links (nothing without a server).
        ListenUrlRecorder,
        { provide: RateLimiter, inject: [READ_STORE, APP_CONFIG], useFactory: createRateLimiter },
        { provide: SECRET_BOX, useFactory: () => new SecretBox(options.storage?.secretsKey ?? loadSecretsKey(config)) },
        BuyerSeal,
        { provide: PublicResponseCache, useFactory: () => new PublicResponseCache({ ttlMs: config.PUBLIC_CACHE_TTL_MS }) },
      ],
      exports: [
        APP_CONFIG,
        CLOCK,
        ID_GENERATOR,
        EVENT_STORE,
        InlineProjections,
        READ_STORE,
        EVENTUAL_READ_STORE,
        ProjectionRunner,
        ProcessManagerRunner,
        DurableTimers,
        RateLimiter,
        SECRET_BOX,
        BuyerSeal,
        PublicResponseCache,
      ],
    };
  }
}
