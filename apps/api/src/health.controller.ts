// Liveness (`/health`: the process answers) and readiness (`/health/ready`: both stores answer and,
// after a write refused for want of storage, have room again: `full` / `read_only` until then).
import { Controller, Get, Inject } from '@nestjs/common';
import { z } from 'zod';

import { ApiError, ApiOperation, EVENT_STORE, type EventStore, Public, READ_STORE, type ReadStore, storageFaultOf } from '@app/platform';

const storeCheck = z.enum(['ok', 'unavailable', 'full', 'read_only']);
type Check = z.output<typeof storeCheck>;

export const healthResponse = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' });

export const readinessResponse = z
  .strictObject({ status: z.literal('ready'), checks: z.strictObject({ eventStore: storeCheck, readStore: storeCheck }) })
  .meta({ id: 'Readiness' });

const TAGS = ['Health'];

const CHECK_TIMEOUT_MS = 2000;

async function check(probe: () => Promise<void>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then((): Check => 'ok'), timeout]);
  } catch (error) {
    return storageFaultOf(error) ?? 'unavailable';
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
  @ApiOperation({
    operationId: 'getHealth',
    summary: 'Liveness: the process answers',
    tags: TAGS,
    responses: { 200: { description: 'Alive', schema: healthResponse, example: { status: 'ok' } } },
  })
  health(): z.output<typeof healthResponse> {
    return { status: 'ok' };
  }

  /** 200 when both stores answer, else 503 NOT_READY naming the one that does not. */
  @Get('ready')
  @Public()
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Readiness: both stores answer',
    description:
      'For load balancers: 503 NOT_READY takes the instance out of rotation. `details.checks` names each store: ' +
      '`unavailable` (it does not answer), `full` or `read_only` (a write was refused for want of storage; ready again ' +
      'as soon as a probe finds room, without a restart).',
    tags: TAGS,
    errors: ['NOT_READY'],
    responses: {
      200: {
        description: 'Ready to serve',
        schema: readinessResponse,
        example: { status: 'ready', checks: { eventStore: 'ok', readStore: 'ok' } },
      },
    },
  })
  async ready(): Promise<z.output<typeof readinessResponse>> {
    const [eventStore, readStore] = await Promise.all([check(() => this.events.ping()), check(() => this.reads.ping())]);
    const checks = { eventStore, readStore };
    if (eventStore !== 'ok' || readStore !== 'ok') {
      const down = Object.entries(checks)
        .filter(([, v]) => v !== 'ok')
        .map(([k, v]) => `${k} ${v === 'read_only' ? 'read-only' : v}`);
      throw new ApiError(503, 'NOT_READY', `Not ready: ${down.join(' and ')}`, { checks });
    }
    return { status: 'ready', checks };
  }
}
