// Request and response schemas of the widget's public routes (they validate and they document).
// The conditions are the project's raw scale (catalog's RAW_GRADES), by label or code.
import { z } from 'zod';

import { normalizeCondition, RAW_GRADES } from '@app/catalog';

import { MAX_SUGGESTIONS } from './card-suggestions';
import { MAX_WANT_PRICE, priceTooHighMessage } from './money-text';
import { MAX_WANT_LINE_LENGTH, MAX_WANT_LINES, MAX_WANT_QUANTITY } from './want-list-parse';
import { WIDGET_CONDITION_HINT } from './want-list-resolve';

export const MAX_WANTED_CARDS = MAX_WANT_LINES;
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

const CHOOSE_CONDITION = `Choose a condition: ${WIDGET_CONDITION_HINT}`;

/** A condition the catalogue reads (the raw scale by label or code, or a grade): its label. An unknown one is refused here. */
const condition = z
  .string({ error: CHOOSE_CONDITION })
  .trim()
  .min(1, CHOOSE_CONDITION)
  .max(60, CHOOSE_CONDITION)
  .transform((text, ctx) => {
    const raw = CONDITIONS.get(text.toLowerCase());
    if (raw) return raw;
    const read = normalizeCondition(text);
    if (!read.recognized) {
      ctx.addIssue({ code: 'custom', message: CHOOSE_CONDITION });
      return z.NEVER;
    }
    return read.value.label;
  })
  .meta({ description: `The lowest acceptable condition: ${WIDGET_CONDITION_HINT}. Absent or null: any condition.` });

/** Every refusal of these schemas is a sentence a buyer understands: the widget shows it next to the field or line. */
const CARD_NAME = 'Enter the card you are looking for';
const QUANTITY = `Enter how many you want, from 1 to ${MAX_WANT_QUANTITY}`;
const PRICE = 'Enter the price as a number, like 12.50';
const CURRENCY = "The shop's currency must be a 3-letter code such as USD";

/** A currency code (ISO 4217), upper-cased. */
const currency = z
  .string({ error: CURRENCY })
  .regex(/^[A-Za-z]{3}$/, CURRENCY)
  .transform((c) => c.toUpperCase());

/**
 * The most a buyer will pay: above 0, at most 2 decimals. The ceiling (the API's money ceiling) is
 * checked with the list's currency (wantListBody), so its message says it as money in that currency.
 */
const maxPrice = z
  .number({ error: PRICE })
  .gt(0, 'Enter a price above 0, or none for any price')
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Use at most 2 decimals in a price')
  .meta({ maximum: MAX_WANT_PRICE });

/** "a, b and c". */
const inWords = (names: readonly string[]): string => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/** An object's own refusals in words: not an object at all, or a field it does not have. */
function objectErrors(what: string, fields: readonly string[]) {
  return {
    error: (issue: z.core.$ZodRawIssue): string | undefined => {
      if (issue.code === 'invalid_type') return `Send ${what} as a JSON object`;
      if (issue.code !== 'unrecognized_keys') return undefined;
      const keys = issue.keys.map((k) => `"${k}"`);
      return `Unknown field${keys.length === 1 ? '' : 's'} ${inWords(keys)}: ${what} has ${inWords(fields)}`;
    },
  };
}

const WANTED_CARD_FIELDS = ['cardName', 'setName', 'condition', 'maxPrice', 'quantity'] as const;

const wantedCard = z.strictObject({
  cardName: z.string({ error: CARD_NAME }).trim().min(1, CARD_NAME).max(200, 'A card name is at most 200 characters').meta({ description: 'The wanted card (normalized against the catalogue). The only required field.' }),
  setName: z
    .string({ error: 'Enter the set as text, or none for any printing' })
    .trim()
    .min(1, 'Enter the set, or none for any printing')
    .max(200, 'A set name is at most 200 characters')
    .nullable()
    .optional()
    .meta({ description: 'Its set: name or code. Absent or null: any printing.' }),
  condition: condition.nullable().optional(),
  maxPrice: maxPrice
    .nullable()
    .optional()
    .meta({ description: `The most the buyer will pay, in \`currency\` (above 0, at most ${MAX_WANT_PRICE.toLocaleString('en-US')}). Absent or null: no price limit.` }),
  quantity: z
    .number({ error: QUANTITY })
    .int(QUANTITY)
    .min(1, QUANTITY)
    .max(MAX_WANT_QUANTITY, QUANTITY)
    .optional()
    .meta({ description: `How many the buyer wants (1–${MAX_WANT_QUANTITY}; default 1): said back in the answer; a request stands for the card, whatever the count.` }),
}, objectErrors('a wanted card', WANTED_CARD_FIELDS));

export const resolveWantListBody = z
  .strictObject({
    text: z
      .string({ error: 'Write your want list, one card per line' })
      .max(MAX_WANT_LINES * (MAX_WANT_LINE_LENGTH + 2) + 1000, `Your list is too long: at most ${MAX_WANT_LINES} lines of up to ${MAX_WANT_LINE_LENGTH} characters`)
      .meta({
        description:
          'The want list as typed or pasted, one card per line (`4 Charizard Base NM`, `Pikachu (Jungle) LP $12`, `Charizard, Base Set, PSA 9, 450 USD`, or the card alone). ' +
          `At most ${MAX_WANT_LINES} non-blank lines are read.`,
      }),
    currency: currency.optional().meta({ description: 'ISO 4217 code of the prices; default USD (a line naming another currency is an error).' }),
  }, objectErrors('the pasted list', ['text', 'currency']))
  .meta({ id: 'WantListText' });

const resolvedLine = z
  .strictObject({
    line: z.number().int().min(1).meta({ description: 'The line number in the text (blank lines count).' }),
    text: z.string().meta({ description: 'The line as typed.' }),
    status: z.enum(['ok', 'error']),
    quantity: z.number().int().optional(),
    cardName: z.string().optional().meta({ description: 'The card as the catalogue names it (a typo of a card of the set corrected).' }),
    setName: z.string().nullable().optional().meta({ description: 'The set as the catalogue names it; null: any printing.' }),
    condition: z.string().nullable().optional().meta({ description: 'The condition on the scale; null: any condition.' }),
    maxPrice: z.number().nullable().optional().meta({ description: 'null: no price limit.' }),
    changes: z.array(z.string()).optional().meta({ description: 'What the catalogue changed, e.g. `corrected "Chairzard" to "Charizard" (one letter off)`.' }),
    warnings: z.array(z.string()).optional().meta({ description: 'What to look at, e.g. `unknown set "Jungel" kept as given (did you mean "Jungle"?)`.' }),
    error: z
      .strictObject({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why the line cannot be sent (`NO_CARD_NAME`, `UNREADABLE_PRICE`, `PRICE_TOO_HIGH`, `UNREADABLE_QUANTITY`, `UNKNOWN_PART`, `LINE_TOO_LONG`, `UNKNOWN_CONDITION`, `OTHER_CURRENCY`), with a message for the buyer; null when it can.' }),
  })
  .meta({ id: 'ResolvedWantLine' });

export const resolvedWantListResponse = z
  .strictObject({
    lines: z.array(resolvedLine).max(MAX_WANT_LINES),
    extraLines: z.number().int().min(0).meta({ description: `Non-blank lines beyond the ${MAX_WANT_LINES} read (not sent).` }),
  })
  .meta({ id: 'ResolvedWantList' });

export const wantListBody = z
  .strictObject({
    items: z
      .array(wantedCard, { error: 'Add a card' })
      .min(1, 'Add a card')
      .max(MAX_WANTED_CARDS, `A want list is at most ${MAX_WANTED_CARDS} cards`)
      .meta({ description: `The wanted cards (1–${MAX_WANTED_CARDS}): one buyer request each. Each counts against the widget's limits.` }),
    currency: currency.optional().meta({ description: 'ISO 4217 code of the prices; default USD.' }),
    email: z
      .string({ error: 'Enter your email address' })
      .trim()
      .max(254, 'An email address is at most 254 characters')
      .pipe(z.email('Enter a valid email address, like name@example.com'))
      .meta({ description: 'How the seller reaches the buyer (personal data: stored sealed with the buyer\'s own key, never logged nor sent in webhooks).' }),
    note: z
      .string({ error: 'Write the note as text' })
      .trim()
      .max(MAX_NOTE_LENGTH, `A note is at most ${MAX_NOTE_LENGTH} characters`)
      .optional()
      .meta({ description: `An optional note to the seller (at most ${MAX_NOTE_LENGTH} characters; personal data, sealed like the email).` }),
    [HONEYPOT_FIELD]: z.string({ error: 'Leave this field empty' }).max(500, 'Leave this field empty').optional().meta({ description: 'Leave empty: a hidden field people never fill.' }),
  }, objectErrors('a want list', ['items', 'currency', 'email', 'note', HONEYPOT_FIELD]))
  .superRefine((body, ctx) => {
    // The ceiling, said as money in the list's currency: "Enter a price up to $100,000,000.00".
    const code = typeof body.currency === 'string' && /^[A-Z]{3}$/.test(body.currency) ? body.currency : 'USD';
    (Array.isArray(body.items) ? body.items : []).forEach((item, index) => {
      const price = (item as { maxPrice?: unknown } | undefined)?.maxPrice;
      if (typeof price === 'number' && price > MAX_WANT_PRICE) {
        ctx.addIssue({ code: 'custom', path: ['items', index, 'maxPrice'], message: priceTooHighMessage(code) });
      }
    });
  })
  .meta({ id: 'WantList' });

export const wantListResponse = z
  .strictObject({
    buyerId: z.string().meta({ description: 'The buyer (`buyer_…`): the same for every want list of one email to this seller.' }),
    matchCount: z.number().int().min(0).meta({ description: 'Items in stock now that meet the wanted cards, all together.' }),
    requests: z
      .array(
        z.strictObject({
          id: z.string().meta({ description: 'The buyer request (`br_…`).' }),
          matchCount: z.number().int().min(0).meta({ description: 'Items in stock now that meet it.' }),
          cardName: z.string().meta({ description: 'The card as the request stores it (normalized).' }),
          setName: z.string().nullable().meta({ description: 'null: any printing.' }),
          condition: z.string().nullable().meta({ description: 'null: any condition.' }),
          maxPrice: z.number().nullable().meta({ description: 'null: no price limit.' }),
          quantity: z.number().int().meta({ description: 'How many the buyer asked for.' }),
        }),
      )
      .meta({ description: 'One answer per wanted card, in the order sent.' }),
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
  requests: [{ id: 'br_01K8Z3Q4V5W6X7Y8Z9A0B1C2D3', matchCount: 2, cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450, quantity: 1 }],
};
