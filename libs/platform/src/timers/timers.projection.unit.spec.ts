// The timers projection's pure parts: what an event does to the timers, and the version that
// rebuilds them when the sources change; then the projection given/when/then (given timers, when
// events, then the pending timers).
import { viewSpec } from '@app/testing/support/view-spec';

import type { RecordedEvent } from '../event-store/event-store.port';
import type { TimerSource } from './timers';
import { type TimerDoc, timerChanges, timerDoc, TIMERS, TimersProjection, timersVersion } from './timers.projection';

function event(type: string, data: Record<string, unknown>, position = 1): RecordedEvent {
  return { id: `e${position}`, type, data, metadata: { workspaceId: 'ws_1', schemaVersion: 1 }, streamId: `hold-${String(data.id)}`, revision: 0, position, createdAt: '2025-01-01T00:00:00.000Z' };
}

const holds: TimerSource = {
  name: 'holds',
  eventTypes: ['hold.placed', 'hold.extended', 'hold.expired', 'hold.released'],
  timersOf(e) {
    const { id, until } = e.data as { id: string; until?: string };
    const timerId = `hold-expiry:${id}`;
    if (e.type === 'hold.placed' || e.type === 'hold.extended') {
      return { schedule: [{ timerId, kind: 'hold.expiry', dueAt: String(until), workspaceId: e.metadata.workspaceId, subjectId: id }] };
    }
    return { cancel: [timerId] };
  },
};

describe('timer documents', () => {
  it('normalizes dueAt to the UTC toISOString form, so strings compare as instants', () => {
    const doc = timerDoc({ timerId: 't1', kind: 'k', dueAt: '2025-01-01T02:00:00+02:00', workspaceId: 'ws_1', subjectId: 's' }, 'src');
    expect(doc).toEqual({ id: 't1', kind: 'k', dueAt: '2025-01-01T00:00:00.000Z', workspaceId: 'ws_1', subjectId: 's', source: 'src' });
  });

  it.each([
    [{ timerId: '', kind: 'k', dueAt: '2025-01-01T00:00:00Z' }, 'without an id'],
    [{ timerId: 't', kind: '', dueAt: '2025-01-01T00:00:00Z' }, 'without a kind'],
    [{ timerId: 't', kind: 'k', dueAt: 'tomorrow' }, 'not an instant'],
  ])('refuses %j', (timer, reason) => {
    expect(timerDoc({ workspaceId: 'ws_1', subjectId: 's', ...timer }, 'src')).toContain(reason);
  });
});

describe('timerChanges', () => {
  it('schedules, replaces and cancels as the source says', () => {
    expect(timerChanges([holds], event('hold.placed', { id: 'hld_1', until: '2025-01-01T00:10:00Z' }))).toEqual([
      { op: 'put', doc: { id: 'hold-expiry:hld_1', kind: 'hold.expiry', dueAt: '2025-01-01T00:10:00.000Z', workspaceId: 'ws_1', subjectId: 'hld_1', source: 'holds' } },
    ]);
    expect(timerChanges([holds], event('hold.expired', { id: 'hld_1' }))).toEqual([{ op: 'delete', id: 'hold-expiry:hld_1' }]);
  });

  it('ignores event types the sources do not read', () => {
    expect(timerChanges([holds], event('offer.created', { id: 'ofr_1' }))).toEqual([]);
  });

  it('applies a source’s cancels before its schedules, and sources in registration order', () => {
    const replacing: TimerSource = {
      name: 'replacing',
      eventTypes: ['hold.extended'],
      timersOf: (e) => ({
        schedule: [{ timerId: 'x', kind: 'k', dueAt: '2025-01-02T00:00:00.000Z', workspaceId: 'ws_1', subjectId: String((e.data as { id: string }).id) }],
        cancel: ['x'],
      }),
    };
    const ops = timerChanges([holds, replacing], event('hold.extended', { id: 'hld_1', until: '2025-01-01T00:20:00Z' })).map((c) =>
      c.op === 'put' ? `put ${c.doc.id}` : c.op === 'delete' ? `delete ${c.id}` : 'invalid',
    );
    expect(ops).toEqual(['put hold-expiry:hld_1', 'delete x', 'put x']);
  });

  it('reports a timer it cannot keep, naming the event', () => {
    const [change] = timerChanges([holds], event('hold.placed', { id: 'hld_1', until: 'soon' }, 42));
    expect(change).toEqual({ op: 'invalid', reason: expect.stringContaining('event e42 at 42') });
  });
});

describe('timersVersion', () => {
  it('is stable whatever the order of sources and event types', () => {
    const reordered: TimerSource = { ...holds, eventTypes: [...holds.eventTypes].reverse() };
    const other: TimerSource = { name: 'offers', eventTypes: ['offer.created'], timersOf: () => ({}) };
    expect(timersVersion([holds, other])).toBe(timersVersion([other, reordered]));
    expect(Number.isInteger(timersVersion([holds]))).toBe(true);
  });

  it('changes with a source, its event types or its version (so the timers are rebuilt)', () => {
    const base = timersVersion([holds]);
    expect(timersVersion([])).not.toBe(base);
    expect(timersVersion([{ ...holds, eventTypes: ['hold.placed'] }])).not.toBe(base);
    expect(timersVersion([{ ...holds, version: 2 }])).not.toBe(base);
    expect(timersVersion([holds, { name: 'offers', eventTypes: ['offer.created'], timersOf: () => ({}) }])).not.toBe(base);
  });
});

describe('TimersProjection', () => {
  it('reads the union of its sources’ event types and refuses a source twice', () => {
    const projection = new TimersProjection(() => undefined);
    projection.add(holds);
    projection.add({ name: 'offers', eventTypes: ['offer.created', 'hold.expired'], timersOf: () => ({}) });
    expect([...projection.eventTypes].sort()).toEqual(['hold.expired', 'hold.extended', 'hold.placed', 'hold.released', 'offer.created']);
    expect(projection.version).toBe(timersVersion([holds, { name: 'offers', eventTypes: ['offer.created', 'hold.expired'], timersOf: () => ({}) }]));
    expect(() => projection.add(holds)).toThrow('registered twice');
  });
});

describe('timers projection, given/when/then', () => {
  const pending = (id: string, dueAt: string): TimerDoc => ({
    id: `hold-expiry:${id}`,
    kind: 'hold.expiry',
    dueAt,
    workspaceId: 'ws_1',
    subjectId: id,
    source: 'holds',
  });
  const projectionOf = (...sources: TimerSource[]) => {
    const invalid: string[] = [];
    const projection = new TimersProjection((reason) => invalid.push(reason));
    for (const source of sources) projection.add(source);
    return { projection, invalid };
  };

  it('a scheduled timer is pending; scheduled again, its dueAt is replaced', () => {
    const { projection } = projectionOf(holds);
    viewSpec(projection)
      .given()
      .when(event('hold.placed', { id: 'hld_1', until: '2025-01-01T00:10:00Z' }, 1), event('hold.extended', { id: 'hld_1', until: '2025-01-01T00:20:00Z' }, 2))
      .then({ [TIMERS.name]: [pending('hld_1', '2025-01-01T00:20:00.000Z')] });
  });

  it('a cancelled timer is gone; the others stay', () => {
    const { projection } = projectionOf(holds);
    viewSpec(projection)
      .given({ [TIMERS.name]: [pending('hld_1', '2025-01-01T00:10:00.000Z'), pending('hld_2', '2025-01-01T00:15:00.000Z')] })
      .when(event('hold.released', { id: 'hld_1' }, 3))
      .then({ [TIMERS.name]: [pending('hld_2', '2025-01-01T00:15:00.000Z')] });
  });

  it('an event no source reads leaves the timers as they are', () => {
    const { projection } = projectionOf(holds);
    viewSpec(projection)
      .given({ [TIMERS.name]: [pending('hld_1', '2025-01-01T00:10:00.000Z')] })
      .when(event('offer.created', { id: 'ofr_1' }, 4))
      .then({ [TIMERS.name]: [pending('hld_1', '2025-01-01T00:10:00.000Z')] });
  });

  it('a timer it cannot keep is left out and reported, and the event’s other timers are kept', () => {
    const both: TimerSource = {
      name: 'both',
      eventTypes: ['hold.placed'],
      timersOf: (e) => ({
        schedule: [
          { timerId: 'bad', kind: 'k', dueAt: 'soon', workspaceId: 'ws_1', subjectId: 's' },
          { timerId: 'good', kind: 'k', dueAt: '2025-01-01T00:00:00Z', workspaceId: 'ws_1', subjectId: String((e.data as { id: string }).id) },
        ],
      }),
    };
    const { projection, invalid } = projectionOf(both);
    viewSpec(projection)
      .given()
      .when(event('hold.placed', { id: 'hld_1' }, 5))
      .then({ [TIMERS.name]: [{ id: 'good', kind: 'k', dueAt: '2025-01-01T00:00:00.000Z', workspaceId: 'ws_1', subjectId: 'hld_1', source: 'both' }] });
    expect(invalid).toEqual([expect.stringContaining('timer bad with dueAt soon, not an instant (event e5 at 5)')]);
  });
});
