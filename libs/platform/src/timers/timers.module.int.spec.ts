// The timers as the platform module wires them: a context registers its source and handler in
// onModuleInit; the scheduler runs where the workers run (RUN_WORKERS), not elsewhere, and stops
// with the application.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { firedProbes, probeHandler, probeSource, scheduleProbes } from '@app/testing/support/timer-probe';

import { loadConfig } from '../config';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { PlatformModule } from '../platform.module';
import { DurableTimers } from './timers';

/** What a context module does: its source and its handler, registered before the workers start. */
@Injectable()
class ProbeTimers {
  readonly handler: ReturnType<typeof probeHandler>;
  constructor(@Inject(EVENT_STORE) events: EventStore) {
    this.handler = probeHandler(events);
  }
}

@Module({ providers: [ProbeTimers] })
class ProbeModule implements OnModuleInit {
  constructor(
    private readonly timers: DurableTimers,
    private readonly probes: ProbeTimers,
  ) {}

  onModuleInit(): void {
    this.timers.register(probeSource);
    this.timers.handle(this.probes.handler);
  }
}

describe('DurableTimers in the platform module', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'timers-module-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function app(runWorkers: boolean) {
    const config = loadConfig({ DATA_DIR: dir, RUN_WORKERS: String(runWorkers), TIMER_POLL_MS: '20', SQLITE_CHECKPOINT_MS: '0' });
    const context = await NestFactory.createApplicationContext(
      { module: class Root {}, imports: [PlatformModule.forRoot(config), ProbeModule] },
      { logger: false },
    );
    context.enableShutdownHooks();
    return { context, events: context.get<EventStore>(EVENT_STORE), timers: context.get(DurableTimers) };
  }

  it('fires due timers where the workers run, and stops with the application', async () => {
    const { context, events, timers } = await app(true);
    try {
      expect(timers.isRunning).toBe(true);
      expect(timers.sources()).toEqual(['probes']);
      await scheduleProbes(events, ['a', 'b'], new Date(Date.now() - 60_000).toISOString());
      const deadline = Date.now() + 10_000;
      while ((await firedProbes(events)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect((await firedProbes(events)).sort()).toEqual(['a', 'b']);
    } finally {
      await context.close();
    }
    expect(timers.isRunning).toBe(false);
  });

  it('does not run the scheduler where the workers do not run (an API process)', async () => {
    const { context, events, timers } = await app(false);
    try {
      await scheduleProbes(events, ['a'], new Date(Date.now() - 60_000).toISOString());
      timers.wake();
      await new Promise((r) => setTimeout(r, 200));
      expect(timers.isRunning).toBe(false);
      expect(await firedProbes(events)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
