import { eventIdFromPublic, publicEventId } from '../event-store/event-store.port';
import { instantRange } from './read-store.port';

describe('instantRange', () => {
  it('is [from, to) in UTC, each bound optional', () => {
    expect(instantRange()).toBeUndefined();
    expect(instantRange('2026-01-01T01:00:00+01:00')).toEqual({ $gte: '2026-01-01T00:00:00.000Z' });
    expect(instantRange(undefined, '2026-01-02T00:00:00Z')).toEqual({ $lt: '2026-01-02T00:00:00.000Z' });
    expect(instantRange('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')).toEqual({ $gte: '2026-01-01T00:00:00.000Z', $lt: '2026-01-02T00:00:00.000Z' });
  });
});

describe('eventIdFromPublic', () => {
  it('inverts publicEventId and refuses anything else', () => {
    const id = '019ab3c4-d5e6-7f80-a1b2-c3d4e5f60718';
    expect(eventIdFromPublic(publicEventId(id))).toBe(id);
    expect(eventIdFromPublic('evt_123')).toBeNull();
    expect(eventIdFromPublic(`br_${'0'.repeat(32)}`)).toBeNull();
  });
});
