import { duration, progressLine, ProgressReporter } from './progress';

describe('CLI progress', () => {
  it('formats durations', () => {
    expect([duration(0), duration(12.4), duration(65), duration(3600 + 180), duration(Number.NaN)]).toEqual(['0s', '12s', '1m 05s', '1h 03m', '?']);
  });

  it('draws the bar, the rate and the time left at that rate', () => {
    expect(progressLine({ label: 'rebuild x', done: 25, total: 100, rate: 12_345.6, unit: 'events' }, 10)).toBe(
      '[######------------------]  25% rebuild x · 12,346 events/s · ETA 30s',
    );
    expect(progressLine({ label: 'rebuild x', done: 0, total: 100, rate: 0, unit: 'events' }, 1)).toContain('ETA ?');
    expect(progressLine({ label: 'rebuild x', done: 5, total: 0, rate: 1, unit: 'events' }, 1)).toContain('100%');
  });

  it('redraws in place on a terminal, prints plain lines elsewhere', () => {
    const written: string[] = [];
    const out = (isTTY: boolean) => ({ isTTY, write: (s: string) => written.push(s) }) as unknown as NodeJS.WriteStream;
    const tty = new ProgressReporter(out(true));
    tty.update({ label: 'r', done: 1, total: 2, counted: 10, unit: 'events' });
    tty.finish('done');
    expect(written[0].startsWith('\r[')).toBe(true);
    expect(written[1]).toBe('\r\x1b[2Kdone\n');
    written.length = 0;
    const plain = new ProgressReporter(out(false));
    plain.update({ label: 'r', done: 1, total: 2, counted: 10, unit: 'events' });
    plain.update({ label: 'r', done: 2, total: 2, counted: 20, unit: 'events' }); // within 5 s: not drawn
    plain.finish('done');
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\[#+-+\]\s+50% r · [\d,]+ events\/s · ETA .+\n$/);
  });
});
