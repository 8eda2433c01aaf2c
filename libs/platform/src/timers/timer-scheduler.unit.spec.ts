import type { DueTimer } from './timers';
import { byKind, describeError } from './timer-scheduler';

const t = (timerId: string, kind: string): DueTimer => ({ timerId, kind, dueAt: '2025-01-01T00:00:00.000Z', workspaceId: 'ws_1', subjectId: timerId });

describe('byKind', () => {
  it('groups timers by kind, keeping their order', () => {
    const groups = byKind([t('a', 'x'), t('b', 'y'), t('c', 'x')]);
    expect([...groups.keys()]).toEqual(['x', 'y']);
    expect(groups.get('x')?.map((g) => g.timerId)).toEqual(['a', 'c']);
  });
});

describe('describeError', () => {
  it('says the name and message, never the stack, and stays short', () => {
    const error = new TypeError('boom');
    expect(describeError(error)).toBe('TypeError: boom');
    expect(describeError(new Error('x'.repeat(1000))).length).toBeLessThanOrEqual(301);
    expect(describeError('plain')).toBe('plain');
  });
});
