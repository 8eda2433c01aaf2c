// The widget settings' refusals are sentences a seller understands (the portal shows them), never
// a validator's wording; what they accept is unchanged.
import type { z } from 'zod';

import { notificationSettingsBody, updateWidgetSettingsBody } from './widget-settings.schemas';

const RAW = /expected|Too big|Too small|Invalid input|Invalid string|Invalid email|received|<=|>=/i;

function issues(schema: z.ZodType, body: unknown): Array<[string, string]> {
  const result = schema.safeParse(body);
  if (result.success) throw new Error(`expected a refusal of ${JSON.stringify(body)}`);
  return result.error.issues.map((i) => [i.path.join('.'), i.message]);
}

const NOTIFICATIONS = { enabled: true, shopName: 'Acme Cards', replyTo: 'hello@acme.example', shopUrl: 'https://shop.acme.example' };

describe('widget settings: allowed origins', () => {
  it.each([
    ['a page, not an origin', { allowedOrigins: ['https://shop.example/cards'] }, 'allowedOrigins.0', /^An origin is a scheme \(https or http\), a host and an optional port, with no path/],
    ['an empty origin', { allowedOrigins: [''] }, 'allowedOrigins.0', /^An origin is a scheme/],
    ['a number', { allowedOrigins: [42] }, 'allowedOrigins.0', /^An origin is a scheme/],
    ['a long origin', { allowedOrigins: [`https://${'a'.repeat(300)}.example`] }, 'allowedOrigins.0', /^An origin is at most 300 characters$/],
    ['too many', { allowedOrigins: Array.from({ length: 51 }, (_, i) => `https://s${i}.example`) }, 'allowedOrigins', /^At most 50 allowed origins$/],
    ['no list', {}, 'allowedOrigins', /^List the allowed origins/],
  ])('refuses %s in words', (_what, body, path, message) => {
    const found = issues(updateWidgetSettingsBody, body);
    expect(found).toContainEqual([path, expect.stringMatching(message)]);
    for (const [, text] of found) expect(text).not.toMatch(RAW);
  });

  it('accepts what it accepted', () => {
    expect(updateWidgetSettingsBody.parse({ allowedOrigins: ['https://Shop.Example/', 'http://localhost:8080'] })).toEqual({ allowedOrigins: ['https://shop.example', 'http://localhost:8080'] });
    expect(updateWidgetSettingsBody.parse({ allowedOrigins: [] })).toEqual({ allowedOrigins: [] });
  });
});

describe('widget settings: buyer emails', () => {
  it.each([
    ['no on/off', { ...NOTIFICATIONS, enabled: 'yes' }, 'enabled', 'Say whether the emails are on: true or false'],
    ['an empty shop name', { ...NOTIFICATIONS, shopName: ' ' }, 'shopName', "Enter the shop's name, or null for the workspace's name"],
    ['a long shop name', { ...NOTIFICATIONS, shopName: 'x'.repeat(101) }, 'shopName', "A shop's name is at most 100 characters"],
    ['a bad reply-to', { ...NOTIFICATIONS, replyTo: 'hello@' }, 'replyTo', 'Enter a valid reply-to address, like hello@shop.example, or null for none'],
    ['a plain-http shop URL', { ...NOTIFICATIONS, shopUrl: 'http://shop.example' }, 'shopUrl', 'The shop URL must be https://… (or http://localhost… while developing), without a user or password'],
    ['a long shop URL', { ...NOTIFICATIONS, shopUrl: `https://shop.example/${'x'.repeat(500)}` }, 'shopUrl', 'A shop URL is at most 500 characters'],
  ])('refuses %s in words', (_what, body, path, message) => {
    const found = issues(notificationSettingsBody, body);
    expect(found).toContainEqual([path, message]);
    for (const [, text] of found) expect(text).not.toMatch(RAW);
  });

  it('accepts what it accepted', () => {
    expect(notificationSettingsBody.parse(NOTIFICATIONS)).toEqual(NOTIFICATIONS);
    expect(notificationSettingsBody.parse({ enabled: false, shopName: null, replyTo: null, shopUrl: null })).toEqual({ enabled: false, shopName: null, replyTo: null, shopUrl: null });
    expect(notificationSettingsBody.parse({ ...NOTIFICATIONS, shopUrl: 'http://localhost:3000/shop' }).shopUrl).toBe('http://localhost:3000/shop');
  });
});
