// Where the public events are, given/when/then: each public event is one small document keyed by
// its public id (applied again, the same document) — several for a stored event that fans out;
// other types leave nothing.
import { fannedOutEventId, publicEventId, PublicEventCatalogue, type RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { EVENT_LOCATIONS, eventLocationProjection } from './event-location.projection';

const catalogue = new PublicEventCatalogue([
  { type: 'offer.created', description: 'x', data: {}, toData: () => ({ n: 1 }) },
  { type: 'trade.initiated', description: 'x', data: {}, toData: () => ({ n: 1 }), fanOut: { 'trade.batch': (e) => (e.data as { ns: number[] }).ns.map((n) => ({ n })) } },
]);
const projection = eventLocationProjection(catalogue);
const event = (type: string, n: number, position: number): RecordedEvent => ({
  id: `0000000${n}-0000-4000-8000-000000000000`,
  type,
  data: {},
  metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
  streamId: `offer-ofr_${n}`,
  revision: 2,
  position,
  createdAt: '2026-03-01T10:00:00.000Z',
});
const locationOf = (n: number, position: number) => ({ id: publicEventId(`0000000${n}-0000-4000-8000-000000000000`), revision: 2, workspaceId: 'ws_1', position });

describe('automation event locations projection', () => {
  it('follows the stored types of the public events', () => {
    expect(projection.eventTypes).toEqual(['offer.created', 'trade.initiated', 'trade.batch']);
  });

  it('a stored event standing for several public events: one document each, at its position', () => {
    const batch = { ...event('trade.batch', 4, 12), data: { ns: [1, 2] } };
    viewSpec(projection)
      .given()
      .when(batch)
      .then({
        [EVENT_LOCATIONS.name]: [0, 1].map((i) => ({ id: publicEventId(fannedOutEventId(batch.id, i)), revision: 2, workspaceId: 'ws_1', position: 12 })),
      });
  });

  it('an event is one document: its workspace and log position, by its public id', () => {
    viewSpec(projection)
      .given()
      .when(event('offer.created', 1, 7), event('trade.initiated', 2, 9))
      .then({ [EVENT_LOCATIONS.name]: [locationOf(1, 7), locationOf(2, 9)] });
  });

  it('applied twice is applied once', () => {
    viewSpec(projection)
      .given({ [EVENT_LOCATIONS.name]: [locationOf(1, 7)] })
      .when(event('offer.created', 1, 7))
      .then({ [EVENT_LOCATIONS.name]: [locationOf(1, 7)] });
  });

  it('an event of another type leaves nothing', () => {
    viewSpec(projection).given().when(event('offer.declined', 3, 11)).then({ [EVENT_LOCATIONS.name]: [] });
  });
});
