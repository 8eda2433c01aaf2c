// What a scheduler remembers of the timers it fired: not again until the projection has seen the
// effect, then only after a doubling backoff; failures back off too; a rescheduled timer starts afresh.
import { backoff, TimerAttempts } from './timer-attempts';

const policy = { firstMs: 1000, maxMs: 8000 };
const timer = { timerId: 't1', dueAt: '2025-01-01T00:00:00.000Z' };

describe('backoff', () => {
  it('doubles from the first delay up to the longest', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => backoff(policy, n))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });
});

describe('TimerAttempts', () => {
  it('lets a timer it never fired fire', () => {
    expect(new TimerAttempts(policy).ready(timer, 0, 0)).toBe(true);
  });

  it('holds a fired timer until the projection reached the log head after the fire, and the backoff passed', () => {
    const attempts = new TimerAttempts(policy);
    expect(attempts.fired(timer, 0, 100)).toBe(1);
    expect(attempts.ready(timer, 5000, 99)).toBe(false); // the cancel may still be on its way
    expect(attempts.ready(timer, 999, 100)).toBe(false); // seen by the projection, still pending: backoff
    expect(attempts.ready(timer, 1000, 100)).toBe(true);
    expect(attempts.fired(timer, 1000, 200)).toBe(2);
    expect(attempts.ready(timer, 2999, 200)).toBe(false);
    expect(attempts.ready(timer, 3000, 200)).toBe(true);
  });

  it('waits for the projection at most the longest backoff (a head it never reaches, a stuck projection)', () => {
    const attempts = new TimerAttempts(policy);
    attempts.fired(timer, 0, 100);
    expect(attempts.ready(timer, 7999, 50)).toBe(false);
    expect(attempts.ready(timer, 8000, 50)).toBe(true);
  });

  it('retries a failed timer after a doubling backoff, without waiting for the projection', () => {
    const attempts = new TimerAttempts(policy);
    expect(attempts.failed(timer, 0)).toBe(1000);
    expect(attempts.ready(timer, 999, 0)).toBe(false);
    expect(attempts.ready(timer, 1000, 0)).toBe(true);
    expect(attempts.failed(timer, 1000)).toBe(2000);
    expect(attempts.failed(timer, 3000)).toBe(4000);
    attempts.fired(timer, 7000, 5);
    expect(attempts.failed(timer, 8000)).toBe(1000); // a success resets the failures
  });

  it('forgets a timer scheduled again for another dueAt', () => {
    const attempts = new TimerAttempts(policy);
    attempts.fired(timer, 0, 100);
    expect(attempts.ready({ ...timer, dueAt: '2025-01-01T00:05:00.000Z' }, 0, 0)).toBe(true);
    expect(attempts.size).toBe(0);
  });

  it('keeps only the timers still due after a complete walk', () => {
    const attempts = new TimerAttempts(policy);
    attempts.fired(timer, 0, 1);
    attempts.fired({ ...timer, timerId: 't2' }, 0, 1);
    attempts.keepOnly(new Set(['t2']));
    expect(attempts.size).toBe(1);
    expect(attempts.ready(timer, 0, 0)).toBe(true);
    expect(attempts.ready({ ...timer, timerId: 't2' }, 0, 0)).toBe(false);
  });
});
