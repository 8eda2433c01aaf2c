import type { RecordedEvent } from '../event-store/event-store.port';
import { parseOnce } from './parse-once';

const recorded = (data: unknown): RecordedEvent => ({
  id: 'e1',
  type: 't.happened',
  data,
  metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
  streamId: 't-1',
  revision: 0,
  position: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('parseOnce', () => {
  it('validates an event the first time it is read, and hands later readers the same typed event', () => {
    const parse = jest.fn((event: RecordedEvent) => ({ type: event.type, n: (event.data as { n: number }).n }));
    const read = parseOnce(parse);
    const event = recorded({ n: 1 });
    const first = read(event);
    expect(read(event)).toBe(first);
    expect(read(event)).toEqual({ type: 't.happened', n: 1 });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('parses another event object again, even one with the same content', () => {
    const parse = jest.fn((event: RecordedEvent) => event.data);
    const read = parseOnce(parse);
    read(recorded({ n: 1 }));
    read(recorded({ n: 1 }));
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('remembers no failure: an invalid event throws to every reader', () => {
    const read = parseOnce((): never => {
      throw new Error('invalid');
    });
    const event = recorded({});
    expect(() => read(event)).toThrow('invalid');
    expect(() => read(event)).toThrow('invalid');
  });
});
