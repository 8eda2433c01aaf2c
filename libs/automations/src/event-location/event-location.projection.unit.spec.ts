// Where the public events are, given/when/then: each event of the given types is one small document
// keyed by its public id (applied again, the same document); other types leave nothing.
import { publicEventId, type RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { EVENT_LOCATIONS, eventLocationProjection } from './event-location.projection';

const projection = eventLocationProjection(['offer.created', 'trade.initiated']);
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
  it('follows the types it is given', () => {
    expect(projection.eventTypes).toEqual(['offer.created', 'trade.initiated']);
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
