// Liveness (`/health`: the process answers) and readiness (`/health/ready`: both stores answer).
import { Controller, Get, Inject } from '@nestjs/common';

import { ApiError, EVENT_STORE, type EventStore, Public, READ_STORE, type ReadStore } from '@app/platform';

type Check = 'ok' | 'unavailable';

const CHECK_TIMEOUT_MS = 2000;

async function check(probe: () => Promise<void>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then((): Check => 'ok'), timeout]);
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

@Controller('api/v1/health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  @Get()
  @Public()
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 when both stores answer, else 503 NOT_READY naming the one that does not. */
  @Get('ready')
  @Public()
  async ready(): Promise<{ status: 'ready'; checks: { eventStore: Check; readStore: Check } }> {
    const [eventStore, readStore] = await Promise.all([check(() => this.events.ping()), check(() => this.reads.ping())]);
    const checks = { eventStore, readStore };
    if (eventStore !== 'ok' || readStore !== 'ok') {
      const down = Object.entries(checks)
        .filter(([, v]) => v !== 'ok')
        .map(([k]) => k);
      throw new ApiError(503, 'NOT_READY', `Not ready: ${down.join(' and ')} unavailable`, { checks });
    }
    return { status: 'ready', checks };
  }
}
