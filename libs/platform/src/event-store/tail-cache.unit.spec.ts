import type { RecordedEvent } from './event-store.port';
import { TailCache } from './tail-cache';

const ev = (position: number, type = 'a.b', streamId = `s-${position}`): RecordedEvent => ({
  id: `e${position}`,
  type,
  data: { n: position, nested: { list: [position] } },
  metadata: { workspaceId: 'ws' } as RecordedEvent['metadata'],
  streamId,
  revision: 0,
  position,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const run = (from: number, to: number, type?: string) => Array.from({ length: to - from + 1 }, (_, i) => ev(from + i, type));

describe('TailCache', () => {
  it('answers a read inside its run that fills the limit, or reaches the head; else null', () => {
    const cache = new TailCache();
    cache.add(run(10, 20));
    expect(cache.read(9, 5, undefined, () => 20)?.map((e) => e.position)).toEqual([10, 11, 12, 13, 14]);
    expect(cache.read(15, 100, undefined, () => 20)?.map((e) => e.position)).toEqual([16, 17, 18, 19, 20]);
    expect(cache.read(20, 100, undefined, () => 20)).toEqual([]); // at the tail: nothing new, no SQL
    expect(cache.read(15, 100, undefined, () => 25)).toBeNull(); // the log has more than the run
    expect(cache.read(8, 5, undefined, () => 20)).toBeNull(); // starts before the run
    expect(cache.read(21, 5, undefined, () => 25)).toBeNull(); // after it
  });

  it('filters by type and stream prefix as the SQL does', () => {
    const cache = new TailCache();
    cache.add([ev(1, 'x'), ev(2, 'y', 'trade-1'), ev(3, 'x', 'trade-2'), ev(4, 'y')]);
    expect(cache.read(0, 10, { types: ['x'] }, () => 4)?.map((e) => e.position)).toEqual([1, 3]);
    expect(cache.read(0, 10, { streamPrefixes: ['trade-'] }, () => 4)?.map((e) => e.position)).toEqual([2, 3]);
    expect(cache.read(0, 10, { types: ['x'], streamPrefixes: ['trade-'] }, () => 4)?.map((e) => e.position)).toEqual([3]);
    expect(cache.read(0, 10, { types: [] }, () => 4)).toEqual([]);
    expect(cache.read(0, 1, { types: ['y'] }, () => 99)?.map((e) => e.position)).toEqual([2]); // the limit filled: certain
  });

  it('extends with what comes right after, restarts after a gap, ignores what is behind', () => {
    const cache = new TailCache();
    cache.add(run(1, 3));
    cache.add(run(3, 5)); // overlap skipped
    expect(cache.end).toBe(5);
    expect(cache.read(0, 10, undefined, () => 5)?.map((e) => e.position)).toEqual([1, 2, 3, 4, 5]);
    cache.add(run(7, 8)); // another process appended 6
    expect(cache.read(4, 10, undefined, () => 8)).toBeNull();
    expect(cache.read(6, 10, undefined, () => 8)?.map((e) => e.position)).toEqual([7, 8]);
    cache.add(run(1, 2)); // behind: ignored
    expect(cache.end).toBe(8);
    cache.add([ev(9), ev(11)]); // not contiguous among themselves: ignored
    expect(cache.end).toBe(8);
    expect(cache.at(7)?.id).toBe('e7');
    expect(cache.at(6)).toBeUndefined();
  });

  it('keeps at most about twice its capacity, the newest', () => {
    const cache = new TailCache(10);
    for (let p = 1; p <= 100; p += 1) cache.add([ev(p)]);
    expect(cache.end).toBe(100);
    expect(cache.read(79, 100, undefined, () => 100)).toBeNull();
    expect(cache.read(95, 100, undefined, () => 100)?.map((e) => e.position)).toEqual([96, 97, 98, 99, 100]);
  });

  it('shares frozen events: a consumer that changes one fails instead of changing it for the others', () => {
    const cache = new TailCache();
    cache.add([ev(1)]);
    const [event] = cache.read(0, 1, undefined, () => 1) ?? [];
    expect(() => {
      (event.data as { n: number }).n = 2;
    }).toThrow(TypeError);
    expect(() => {
      ((event.data as { nested: { list: number[] } }).nested.list as number[]).push(3);
    }).toThrow(TypeError);
  });
});
