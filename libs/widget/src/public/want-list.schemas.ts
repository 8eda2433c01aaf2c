// Request and response schemas of the widget's public routes (they validate and they document).
// The conditions are the project's raw scale (catalog's RAW_GRADES), by label or code.
import { z } from 'zod';

import { RAW_GRADES } from '@app/catalog';
import { currencyCode, moneyAmount } from '@app/platform';

import { MAX_SUGGESTIONS } from './card-suggestions';

export const MAX_WANTED_CARDS = 10;
export const MAX_NOTE_LENGTH = 500;
/** The hidden field a person never sees nor fills; a form-filling bot does. */
export const HONEYPOT_FIELD = 'website';

const slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a seller slug: lowercase letters, digits and hyphens')
  .meta({ description: "The seller's slug (its workspace's), the widget's `data-seller`.", examples: ['acme'] });

export const sellerSlugParams = z.object({ slug });

export const cardSuggestionsQuery = z.object({
  q: z.string().trim().max(100).optional().meta({ description: 'What was typed so far; under 2 characters (or none) gives no suggestions.' }),
});

export const cardSuggestionsResponse = z
  .strictObject({
    data: z
      .array(z.strictObject({ cardName: z.string(), sets: z.array(z.string()).meta({ description: 'Sets it was printed in, newest first.' }) }))
      .max(MAX_SUGGESTIONS),
  })
  .meta({ id: 'CardSuggestions' });

const CONDITIONS = new Map(RAW_GRADES.flatMap((g) => [[g.label.toLowerCase(), g.label] as const, [g.code.toLowerCase(), g.label] as const]));
const CONDITION_LIST = RAW_GRADES.map((g) => `${g.label} (${g.code})`).join(', ');

const condition = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .transform((text, ctx) => {
    const label = CONDITIONS.get(text.toLowerCase());
    if (!label) {
      ctx.addIssue({ code: 'custom', message: `Choose a condition: ${CONDITION_LIST}` });
      return z.NEVER;
    }
    return label;
  })
  .meta({ description: `The lowest acceptable condition: ${CONDITION_LIST}.` });

const wantedCard = z.strictObject({
  cardName: z.string().trim().min(1, 'Enter the card you are looking for').max(200).meta({ description: 'The wanted card (normalized against the catalogue).' }),
  setName: z.string().trim().min(1, 'Enter the set').max(200).meta({ description: 'Its set: name or code.' }),
  condition,
  maxPrice: moneyAmount.refine((v) => v > 0, 'Enter a price above 0').meta({ description: 'The most the buyer will pay, in `currency`.' }),
});

export const wantListBody = z
  .strictObject({
    items: z.array(wantedCard).min(1, 'Add a card').max(MAX_WANTED_CARDS).meta({ description: `The wanted cards (1–${MAX_WANTED_CARDS}): one buyer request each.` }),
    currency: currencyCode.optional().meta({ description: 'ISO 4217 code of the prices; default USD.' }),
    email: z
      .string()
      .trim()
      .max(254, 'An email address is at most 254 characters')
      .pipe(z.email('Enter a valid email address, like name@example.com'))
      .meta({ description: 'How the seller reaches the buyer (personal data: stored sealed with the buyer\'s own key, never logged nor sent in webhooks).' }),
    note: z.string().trim().max(MAX_NOTE_LENGTH).optional().meta({ description: `An optional note to the seller (at most ${MAX_NOTE_LENGTH} characters; personal data, sealed like the email).` }),
    [HONEYPOT_FIELD]: z.string().max(500).optional().meta({ description: 'Leave empty: a hidden field people never fill.' }),
  })
  .meta({ id: 'WantList' });

export const wantListResponse = z
  .strictObject({
    buyerId: z.string().meta({ description: 'The buyer (`buyer_…`): the same for every want list of one email to this seller.' }),
    matchCount: z.number().int().min(0).meta({ description: 'Items in stock now that meet the wanted cards, all together.' }),
    requests: z.array(
      z.strictObject({
        id: z.string().meta({ description: 'The buyer request (`br_…`).' }),
        matchCount: z.number().int().min(0).meta({ description: 'Items in stock now that meet it.' }),
      }),
    ),
  })
  .meta({ id: 'WantListReceived' });

export const wantListExample: z.input<typeof wantListBody> = {
  items: [{ cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450 }],
  email: 'sam@example.com',
  note: 'Happy to pick up at the shop.',
};

export const wantListResponseExample: z.output<typeof wantListResponse> = {
  buyerId: 'buyer_k3v5x7z2b4d6f3h2j4l6n5p2r4',
  matchCount: 2,
  requests: [{ id: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', matchCount: 2 }],
};
