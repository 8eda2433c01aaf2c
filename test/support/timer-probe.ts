// A probe for the durable timers: a `probe-<id>` stream is scheduled for an instant, may be
// cancelled, and is fired once — by a timer handler going through the write path, whose decider
// decides nothing when the probe is not due, cancelled or fired already.
import { AppendBatcher, type DueTimer, type EventStore, type NewEvent, type TimerHandler, type TimerSource } from '@app/platform';
import { type Aggregate, type Decider, type DomainEvent, handleCommand, type RecordedEvent } from '@app/platform/domain';

export type ProbeEvent =
  | DomainEvent<'probe.scheduled', { id: string; dueAt: string }>
  | DomainEvent<'probe.cancelled', { id: string }>
  | DomainEvent<'probe.fired', { id: string; at: string }>;

interface ProbeState {
  dueAt: string | null;
  cancelled: boolean;
  fired: boolean;
}

type ProbeCommand = { type: 'fire'; id: string; now: string };

const probeDecider: Decider<ProbeCommand, ProbeEvent, ProbeState> = {
  initialState: { dueAt: null, cancelled: false, fired: false },
  decide(command, state) {
    if (state.dueAt === null || state.cancelled || state.fired || state.dueAt > command.now) return [];
    return [{ type: 'probe.fired', data: { id: command.id, at: command.now } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'probe.scheduled':
        return { ...state, dueAt: event.data.dueAt };
      case 'probe.cancelled':
        return { ...state, cancelled: true };
      case 'probe.fired':
        return { ...state, fired: true };
    }
  },
};

const probeAggregate: Aggregate<ProbeCommand, ProbeEvent, ProbeState> = {
  decider: probeDecider,
  parseEvent: (event: RecordedEvent) => ({ type: event.type, data: event.data }) as ProbeEvent,
};

export const PROBE_KIND = 'probe.fire';
export const probeStream = (id: string): string => `probe-${id}`;
export const probeTimerId = (id: string): string => `probe:${id}`;

export const probeSource: TimerSource = {
  name: 'probes',
  eventTypes: ['probe.scheduled', 'probe.cancelled', 'probe.fired'],
  timersOf(event) {
    const { id } = event.data as { id: string };
    if (event.type !== 'probe.scheduled') return { cancel: [probeTimerId(id)] };
    const { dueAt } = event.data as { dueAt: string };
    return { schedule: [{ timerId: probeTimerId(id), kind: PROBE_KIND, dueAt, workspaceId: event.metadata.workspaceId, subjectId: id }] };
  },
};

const meta = { workspaceId: 'ws_probe', schemaVersion: 1 };

export function scheduled(id: string, dueAt: string): NewEvent {
  return { type: 'probe.scheduled', data: { id, dueAt }, metadata: meta };
}

export function cancelled(id: string): NewEvent {
  return { type: 'probe.cancelled', data: { id }, metadata: meta };
}

/** Appends `probe.scheduled` for each id, many streams per append. */
export async function scheduleProbes(events: EventStore, ids: readonly string[], dueAt: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    await events.appendMany(ids.slice(i, i + 1000).map((id) => ({ streamId: probeStream(id), events: [scheduled(id, dueAt)], expectedRevision: 'no_stream' as const })));
  }
}

/** The ids of the probes fired in the log, one entry per `probe.fired` event (so a double shows). */
export async function firedProbes(events: EventStore): Promise<string[]> {
  const fired: string[] = [];
  let from = 0;
  for (;;) {
    const batch = await events.readAll({ fromPosition: from, limit: 5000, filter: { types: ['probe.fired'] } });
    if (batch.length === 0) return fired;
    fired.push(...batch.map((e) => (e.data as { id: string }).id));
    from = batch[batch.length - 1].position;
  }
}

/**
 * The probe's handler: the whole batch through the write path at once (an AppendBatcher turns the
 * batch's appends into one transaction). `before` runs first on every call (to fail on cue).
 */
export function probeHandler(events: EventStore, before?: (timers: readonly DueTimer[]) => void): TimerHandler & { calls: DueTimer[][] } {
  const log = new AppendBatcher(events);
  const calls: DueTimer[][] = [];
  return {
    kind: PROBE_KIND,
    calls,
    async fire(timers, now) {
      calls.push([...timers]);
      before?.(timers);
      await Promise.all(
        timers.map((t) =>
          handleCommand(log, probeStream(t.subjectId), probeAggregate, { type: 'fire', id: t.subjectId, now: now.toISOString() }, { workspaceId: t.workspaceId, actor: 'system' }),
        ),
      );
    },
  };
}
