import { parseDuration, parseRetrySchedule } from './retry-schedule';

describe('retry schedule', () => {
  it('parses the default, units and bare milliseconds', () => {
    expect(parseRetrySchedule('0,1m,5m,30m,2h')).toEqual([0, 60_000, 300_000, 1_800_000, 7_200_000]);
    expect(parseRetrySchedule(' 0 , 250ms, 1.5s ,2')).toEqual([0, 250, 1500, 2]);
    expect(parseDuration('30s')).toBe(30_000);
  });

  it.each(['', '1m,,2m', '5x', '-1s', 'soon', '8d', Array(21).fill('1s').join(','), '200h'])('refuses %j', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow();
  });
});
