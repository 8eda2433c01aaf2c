// The public events read model, given/when/then: a public event becomes one document keyed by its
// public id (applied again, the same document); an internal event, or one the catalogue gives no
// data for, leaves nothing.
import { fannedOutEventId, publicEventId, PublicEventCatalogue, type RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { PUBLIC_EVENTS, publicEventProjection } from './public-event.projection';

const catalogue = new PublicEventCatalogue([
  {
    type: 'thing.happened',
    description: 'test',
    data: {},
    toData: (e: RecordedEvent) => ({ n: (e.data as { n: number }).n }),
    // A stored `things.batch` stands for one thing.happened per n.
    fanOut: { 'things.batch': (e: RecordedEvent) => (e.data as { ns: number[] }).ns.map((n) => ({ n })) },
  },
  { type: 'thing.quiet', description: 'declared, emits nothing yet', data: {} },
]);
const projection = publicEventProjection(catalogue);
const event = (type: string, n: number, position: number): RecordedEvent => ({
  id: `0000000${n}-0000-4000-8000-000000000000`,
  type,
  data: { n, secret: 'kept out' },
  metadata: { workspaceId: 'ws_1', correlationId: 'c', actor: 'test', schemaVersion: 1 },
  streamId: `thing-${n}`,
  revision: 0,
  position,
  createdAt: '2026-03-01T10:00:00.000Z',
});
const documentOf = (n: number, position: number) => ({
  id: `evt_0000000${n}000040008000000000000000`,
  workspaceId: 'ws_1',
  type: 'thing.happened',
  createdAt: '2026-03-01T10:00:00.000Z',
  position,
  envelope: { id: `evt_0000000${n}000040008000000000000000`, type: 'thing.happened', created_at: '2026-03-01T10:00:00.000Z', workspace_id: 'ws_1', data: { n } },
});

describe('public events projection', () => {
  it('follows the catalogue types', () => {
    expect(projection.eventTypes).toEqual(['thing.happened', 'thing.quiet', 'things.batch']);
  });

  it('a stored event standing for several public events is one document each, at its position, ids derived in order', () => {
    const batch = { ...event('things.batch', 5, 12), data: { ns: [3, 4] } };
    const ids = [0, 1].map((i) => publicEventId(fannedOutEventId(batch.id, i)));
    const docs = viewSpec(projection).given().when(batch, batch).documents()[PUBLIC_EVENTS.name];
    expect(docs.map((d) => d.id)).toEqual(ids);
    expect(docs).toEqual(
      [3, 4].map((n, i) => ({
        id: ids[i],
        workspaceId: 'ws_1',
        type: 'thing.happened',
        createdAt: '2026-03-01T10:00:00.000Z',
        position: 12,
        envelope: { id: ids[i], type: 'thing.happened', created_at: '2026-03-01T10:00:00.000Z', workspace_id: 'ws_1', data: { n } },
      })),
    );
  });

  it('a public event is one document, its envelope as delivered (public data only)', () => {
    viewSpec(projection)
      .given()
      .when(event('thing.happened', 1, 7), event('thing.happened', 2, 9))
      .then({ [PUBLIC_EVENTS.name]: [documentOf(1, 7), documentOf(2, 9)] });
  });

  it('applied twice is applied once', () => {
    viewSpec(projection)
      .given({ [PUBLIC_EVENTS.name]: [documentOf(1, 7)] })
      .when(event('thing.happened', 1, 7))
      .then({ [PUBLIC_EVENTS.name]: [documentOf(1, 7)] });
  });

  it('an event the catalogue gives no data for leaves nothing', () => {
    viewSpec(projection).given().when(event('thing.quiet', 3, 11)).then({ [PUBLIC_EVENTS.name]: [] });
  });
});
