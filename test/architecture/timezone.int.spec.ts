// The int tier runs in UTC (jest.config.js pins TZ before any worker starts): a date's local
// reading never depends on the machine the tests run on.
import { UTC, zoneOfThisProcess } from '@app/testing/support/timezone';

it('runs the int tier in UTC', () => {
  expect(zoneOfThisProcess()).toEqual(UTC);
  expect(new Date(2025, 0, 1).toISOString()).toBe('2025-01-01T00:00:00.000Z');
});
