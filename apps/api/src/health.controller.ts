// Liveness (`/health`: the process answers) and readiness (`/health/ready`: both stores answer, their
// file systems have room and are writable — `full` / `read_only` until then — and no database was
// found damaged: `corrupt` until an operator restores it and restarts).
import { Controller, Get, Inject } from '@nestjs/common';
import { z } from 'zod';

import {
  ApiError,
  ApiOperation,
  EVENT_STORE,
  type EventStore,
  EVENTUAL_READ_STORE,
  Public,
  READ_STORE,
  type ReadStore,
  StorageFaultError,
  storageFaultOf,
} from '@app/platform';

const storeCheck = z.enum(['ok', 'unavailable', 'full', 'read_only', 'corrupt']);
type Check = z.output<typeof storeCheck>;

export const healthResponse = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' });

export const readinessResponse = z
  .strictObject({ status: z.literal('ready'), checks: z.strictObject({ eventStore: storeCheck, readStore: storeCheck }) })
  .meta({ id: 'Readiness' });

const TAGS = ['Health'];

const CHECK_TIMEOUT_MS = 2000;

interface Outcome {
  check: Check;
  /** The database file at fault (embedded stores), e.g. `events.db`. */
  file?: string;
}

async function check(probe: () => Promise<void>): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ check: 'unavailable' }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then((): Outcome => ({ check: 'ok' })), timeout]);
  } catch (error) {
    const fault = storageFaultOf(error);
    if (fault === undefined) return { check: 'unavailable' };
    return error instanceof StorageFaultError ? { check: fault, file: error.file } : { check: fault };
  } finally {
    clearTimeout(timer);
  }
}

/** Of two outcomes, the one that matters most: a damaged file over any other fault, any fault over ok. */
function worst(a: Outcome, b: Outcome): Outcome {
  const rank: Record<Check, number> = { ok: 0, unavailable: 1, read_only: 2, full: 3, corrupt: 4 };
  return rank[b.check] > rank[a.check] ? b : a;
}

@Controller('api/v1/health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENTUAL_READ_STORE) private readonly eventualReads: ReadStore,
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
      '`unavailable` (it does not answer), `full` or `read_only` (its file system has no room or is read-only, or a write ' +
      'was refused for want of storage; ready again as soon as a probe finds room, without a restart), `corrupt` (a ' +
      'database file was found damaged: writes are refused until an operator restores it and restarts). ' +
      '`details.files` names the database file of each store at fault (embedded stores).',
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
    const [events, reads, eventualReads] = await Promise.all([
      check(() => this.events.ping()),
      check(() => this.reads.ping()),
      this.eventualReads === this.reads ? Promise.resolve<Outcome>({ check: 'ok' }) : check(() => this.eventualReads.ping()),
    ]);
    const outcomes = { eventStore: events, readStore: worst(reads, eventualReads) };
    const checks = { eventStore: outcomes.eventStore.check, readStore: outcomes.readStore.check };
    if (checks.eventStore !== 'ok' || checks.readStore !== 'ok') {
      const down = Object.entries(outcomes)
        .filter(([, v]) => v.check !== 'ok')
        .map(([k, v]) => `${k} ${v.check === 'read_only' ? 'read-only' : v.check}${v.file ? ` (${v.file})` : ''}`);
      const files = Object.fromEntries(Object.entries(outcomes).flatMap(([k, v]) => (v.file ? [[k, v.file]] : [])));
      throw new ApiError(503, 'NOT_READY', `Not ready: ${down.join(' and ')}`, Object.keys(files).length > 0 ? { checks, files } : { checks });
    }
    return { status: 'ready', checks };
  }
}
