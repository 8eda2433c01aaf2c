// The e2e tier runs in UTC (jest.config.js pins TZ before any worker starts), and so do the
// processes it starts — the app and the CLI inherit the test's environment (test/support/app-process).
import { execFileSync } from 'node:child_process';

import { UTC, ZONE_SCRIPT, zoneOfThisProcess } from '../support/timezone';

it('runs the e2e tier in UTC, and the processes it starts', () => {
  expect(zoneOfThisProcess()).toEqual(UTC);
  expect(JSON.parse(execFileSync(process.execPath, ['-e', ZONE_SCRIPT], { encoding: 'utf8', env: process.env }))).toEqual(UTC);
});
