// The public events read model, given/when/then: a public event becomes one document keyed by its
// public id (applied again, the same document); an internal event, or one the catalogue gives no
// data for, leaves nothing.
import { PublicEventCatalogue, type RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { PUBLIC_EVENTS, publicEventProjection } from './public-event.projection';

const catalogue = new PublicEventCatalogue([
  { type: 'thing.happened', description: 'test', data: {}, toData: (e: RecordedEvent) => ({ n: (e.data as { n: number }).n }) },
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
    expect(projection.eventTypes).toEqual(['thing.happened', 'thing.quiet']);
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
