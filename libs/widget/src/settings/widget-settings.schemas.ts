// Request and response schemas of /api/v1/widget/settings (they validate and they document).
import { z } from 'zod';

import { normalizeOrigin } from '../public/origin';

export const MAX_ALLOWED_ORIGINS = 50;

const origin = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .transform((text, ctx) => {
    const normalized = normalizeOrigin(text);
    if (normalized === null) {
      ctx.addIssue({ code: 'custom', message: 'An origin is a scheme (https or http), a host and an optional port, with no path: `https://shop.example`' });
      return z.NEVER;
    }
    return normalized;
  })
  .meta({ description: 'A web origin: `https://shop.example`, `http://localhost:8080` (no path).', examples: ['https://shop.example'] });

export const updateWidgetSettingsBody = z
  .strictObject({
    allowedOrigins: z
      .array(origin)
      .max(MAX_ALLOWED_ORIGINS)
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
