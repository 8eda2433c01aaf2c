// The retry schedule: `0,1m,5m,30m,2h` — each entry is the delay before an attempt, counted from
// the previous attempt (the first from the event); the number of entries is the number of attempts.
// Units ms, s, m, h; a bare number is milliseconds.

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export const DEFAULT_RETRY_SCHEDULE = '0,1m,5m,30m,2h';

/** Parses one duration (`500ms`, `30s`, `1m`, `2h`, `250`); throws with a clear message. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (a number with ms, s, m or h, e.g. 30s)`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
}

/** Parses a schedule; at least one and at most 20 attempts, each delay at most 7 days. */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((e) => e.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) throw new Error('a comma-separated list of durations, e.g. 0,1m,5m,30m,2h');
  if (entries.length > 20) throw new Error('at most 20 attempts');
  const delays = entries.map(parseDuration);
  if (delays.some((d) => d > 7 * 86_400_000)) throw new Error('each delay must be at most 7 days');
  return delays;
}
