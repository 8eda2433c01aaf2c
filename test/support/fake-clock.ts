// A clock tests move by hand: `now()` stands still until `advance` or `set` moves it.
import type { Clock } from '@app/platform';

export class FakeClock implements Clock {
  private at: number;

  constructor(start: string | Date = '2025-01-01T00:00:00.000Z') {
    this.at = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  advance(ms: number): void {
    this.at += ms;
  }

  set(to: string | Date): void {
    this.at = new Date(to).getTime();
  }
}
