// Request and response schemas of /api/v1/widget/settings (they validate and they document). Their
// refusals are sentences a seller understands (the portal shows them), never a validator's wording.
import { z } from 'zod';

import { normalizeOrigin } from '../public/origin';

export const MAX_ALLOWED_ORIGINS = 50;

const ORIGIN = 'An origin is a scheme (https or http), a host and an optional port, with no path: `https://shop.example`';

const origin = z
  .string({ error: ORIGIN })
  .trim()
  .min(1, ORIGIN)
  .max(300, 'An origin is at most 300 characters')
  .transform((text, ctx) => {
    const normalized = normalizeOrigin(text);
    if (normalized === null) {
      ctx.addIssue({ code: 'custom', message: ORIGIN });
      return z.NEVER;
    }
    return normalized;
  })
  .meta({ description: 'A web origin: `https://shop.example`, `http://localhost:8080` (no path).', examples: ['https://shop.example'] });

export const updateWidgetSettingsBody = z
  .strictObject({
    allowedOrigins: z
      .array(origin, { error: 'List the allowed origins, like ["https://shop.example"] (an empty list allows any page)' })
      .max(MAX_ALLOWED_ORIGINS, `At most ${MAX_ALLOWED_ORIGINS} allowed origins`)
      .meta({ description: `The origins whose pages may send want lists through your widget (at most ${MAX_ALLOWED_ORIGINS}); empty: any page.` }),
  })
  .meta({ id: 'UpdateWidgetSettings' });

export const widgetSettingsResponse = z
  .strictObject({
    seller: z.string().meta({ description: 'Your seller slug (the workspace slug), the `data-seller` of the snippet.' }),
    allowedOrigins: z.array(z.string()).meta({ description: 'Origins whose pages may send want lists; empty: any page.' }),
    updatedAt: z.iso.datetime().nullable().meta({ description: 'When they last changed; null: never set.' }),
    scriptUrl: z.string().meta({ description: 'The widget script.' }),
    snippet: z.string().meta({ description: 'The HTML to paste where the form should appear.' }),
  })
  .meta({ id: 'WidgetSettings' });

export const widgetSettingsExample: z.output<typeof widgetSettingsResponse> = {
  seller: 'acme',
  allowedOrigins: ['https://shop.acme.example'],
  updatedAt: '2025-11-22T15:04:05.000Z',
  scriptUrl: 'https://api.example.com/widget.js',
  snippet: '<script src="https://api.example.com/widget.js" data-seller="acme" data-theme="auto" async></script>',
};

/** A shop URL: https anywhere, or http on localhost only (development); no credentials in it. */
export function isShopUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname.length > 0;
  return url.protocol === 'http:' && url.hostname === 'localhost';
}

const shopUrl = z
  .string({ error: 'The shop URL must be https://… (or http://localhost… while developing)' })
  .trim()
  .max(500, 'A shop URL is at most 500 characters')
  .refine(isShopUrl, { message: 'The shop URL must be https://… (or http://localhost… while developing), without a user or password' })
  .meta({ description: "Your shop's web address, linked from the email: https (http only on localhost).", examples: ['https://shop.acme.example'] });

export const notificationSettingsBody = z
  .strictObject({
    enabled: z.boolean({ error: 'Say whether the emails are on: true or false' }).meta({ description: 'Email buyers who left a want list when a card they want is in stock.' }),
    shopName: z
      .string({ error: "Enter the shop's name, or null for the workspace's name" })
      .trim()
      .min(1, "Enter the shop's name, or null for the workspace's name")
      .max(100, "A shop's name is at most 100 characters")
      .nullable()
      .meta({ description: "The shop's name as the email shows it (From, subject, signature); null: the workspace's name." }),
    replyTo: z
      .email({ error: 'Enter a valid reply-to address, like hello@shop.example, or null for none' })
      .max(254, 'An email address is at most 254 characters')
      .nullable()
      .meta({ description: "Where the buyers' replies go; null: no Reply-To." }),
    shopUrl: shopUrl.nullable(),
  })
  .meta({ id: 'UpdateNotificationSettings' });

export const notificationSettingsResponse = z
  .strictObject({
    enabled: z.boolean(),
    shopName: z.string().nullable(),
    replyTo: z.string().nullable(),
    shopUrl: z.string().nullable(),
    updatedAt: z.iso.datetime().nullable().meta({ description: 'When they last changed; null: never set (the defaults: on, the workspace name, no reply-to, no link).' }),
  })
  .meta({ id: 'NotificationSettings' });

export const notificationSettingsExample: z.output<typeof notificationSettingsResponse> = {
  enabled: true,
  shopName: 'Acme Cards',
  replyTo: 'hello@acme.example',
  shopUrl: 'https://shop.acme.example',
  updatedAt: '2025-11-22T15:04:05.000Z',
};
