// What time zone a test process runs in: TZ as set, the zone Intl resolves, and the local offset in
// winter and in summer (a zone with daylight saving differs in one of them). jest.config.js pins
// TZ=UTC for every tier; test/architecture/timezone.*.spec.ts check it with this.
export interface Zone {
  tz: string | undefined;
  intl: string;
  winterOffset: number;
  summerOffset: number;
}

export function zoneOfThisProcess(): Zone {
  return {
    tz: process.env.TZ,
    intl: Intl.DateTimeFormat().resolvedOptions().timeZone,
    winterOffset: new Date(2025, 0, 15, 12).getTimezoneOffset(),
    summerOffset: new Date(2025, 6, 15, 12).getTimezoneOffset(),
  };
}

/** The same, in a child Node process started as the e2e tier starts the app (inheriting the environment). */
export const ZONE_SCRIPT =
  'process.stdout.write(JSON.stringify({ tz: process.env.TZ, intl: Intl.DateTimeFormat().resolvedOptions().timeZone, ' +
  'winterOffset: new Date(2025, 0, 15, 12).getTimezoneOffset(), summerOffset: new Date(2025, 6, 15, 12).getTimezoneOffset() }))';

export const UTC: Zone = { tz: 'UTC', intl: 'UTC', winterOffset: 0, summerOffset: 0 };
