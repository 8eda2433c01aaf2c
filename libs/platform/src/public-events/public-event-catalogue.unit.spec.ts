// The catalogue's mapping of stored events to public events: one-to-one types keep the stored id;
// a stored type that fans out stands for its public events in catalogue order, each with an id
// derived from the stored event's and its index — stable, distinct, uuid-shaped, in order.
import { publicEventId, type RecordedEvent } from '../event-store/event-store.port';
import { fannedOutEventId, PublicEventCatalogue } from './public-event-catalogue';

const stored = (type: string, data: unknown, id = '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60718'): RecordedEvent => ({
  id,
  type,
  data,
  metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
  streamId: 's-1',
  revision: 0,
  position: 7,
  createdAt: '2026-03-01T10:00:00.000Z',
});
const catalogue = new PublicEventCatalogue([
  {
    type: 'a.summed',
    description: 'one per batch with a total',
    data: {},
    toData: (e) => ({ total: (e.data as { total: number }).total }),
    fanOut: { 'a.batch': (e) => ((e.data as { ns: number[] }).ns.length > 0 ? [{ total: (e.data as { ns: number[] }).ns.length }] : []) },
  },
  { type: 'a.item', description: 'one per n', data: {}, toData: (e) => ({ n: (e.data as { n: number }).n }), fanOut: { 'a.batch': (e) => (e.data as { ns: number[] }).ns.map((n) => ({ n })) } },
  { type: 'a.later', description: 'nobody emits it yet', data: {} },
]);

describe('PublicEventCatalogue', () => {
  it('a one-to-one stored event: one public event, its own id', () => {
    const event = stored('a.item', { n: 3 });
    expect(catalogue.publicEvents(event)).toEqual([{ eventId: event.id, index: 0, type: 'a.item', data: { n: 3 } }]);
    expect(catalogue.envelopes(event)).toEqual([{ id: publicEventId(event.id), type: 'a.item', created_at: event.createdAt, workspace_id: 'ws_1', data: { n: 3 } }]);
  });

  it('a fanned-out stored event: its public events in catalogue order, ids derived per index', () => {
    const event = stored('a.batch', { ns: [5, 6] });
    expect(catalogue.publicEvents(event)).toEqual([
      { eventId: fannedOutEventId(event.id, 0), index: 0, type: 'a.summed', data: { total: 2 } },
      { eventId: fannedOutEventId(event.id, 1), index: 1, type: 'a.item', data: { n: 5 } },
      { eventId: fannedOutEventId(event.id, 2), index: 2, type: 'a.item', data: { n: 6 } },
    ]);
    expect(catalogue.publicEvents(stored('a.batch', { ns: [] }))).toEqual([]);
  });

  it('types: the public ones to subscribe to; the stored ones to read; what each stored type stands for', () => {
    expect(catalogue.types()).toEqual(['a.summed', 'a.item', 'a.later']);
    expect(catalogue.has('a.batch')).toBe(false);
    expect(catalogue.storedTypes()).toEqual(['a.summed', 'a.item', 'a.later', 'a.batch']);
    expect(catalogue.deliveredStoredTypes()).toEqual(['a.summed', 'a.item', 'a.batch']);
    expect(catalogue.publicTypesOf('a.batch')).toEqual(['a.summed', 'a.item']);
    expect(catalogue.publicTypesOf('a.item')).toEqual(['a.item']);
    expect(catalogue.publicTypesOf('a.later')).toEqual([]);
    expect(catalogue.publicTypesOf('internal.thing')).toEqual([]);
    expect(catalogue.publicEvents(stored('internal.thing', {}))).toEqual([]);
  });

  it('fannedOutEventId: a v8 uuid, the index first, stable, distinct per event and index, never the stored id', () => {
    const id = '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60718';
    const ids = [0, 1, 2, 255, 65535].map((i) => fannedOutEventId(id, i));
    for (const derived of ids) expect(derived).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.map((d) => d.slice(0, 4))).toEqual(['0000', '0001', '0002', '00ff', 'ffff']);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(fannedOutEventId(id, 1)).toBe(ids[1]);
    expect(fannedOutEventId('019ab3c4-d5e6-7f80-a1b2-c3d4e5f60719', 1)).not.toBe(ids[1]);
    expect(ids).not.toContain(id);
    expect(() => fannedOutEventId(id, 65536)).toThrow(/at most 65,536/);
  });

  it('refuses a stored type that is both a public type and a fan-out source, and a type declared twice', () => {
    expect(() => new PublicEventCatalogue([{ type: 'x', description: '', data: {}, fanOut: { x: () => [] } }])).toThrow(/cannot also fan out/);
    expect(() => new PublicEventCatalogue([{ type: 'x', description: '', data: {} }, { type: 'x', description: '', data: {} }])).toThrow(/declared twice/);
  });
});
