// What an automation rule may do: its trigger conditions (a small operator set over the triggering
// event's public, snake_case data) and its action, a discriminated union on `type`. Pure zod: the
// stored contract and the request schemas both use these. Money is in major units, as on the API.
import { z } from 'zod';

export const CONDITION_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

const scalar = z.union([z.string().max(200), z.number(), z.boolean(), z.null()]);

export const condition = z
  .strictObject({
    field: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/).meta({ description: 'A field of the event\'s public `data` (snake_case), e.g. `amount`, `from`.' }),
    op: z.enum(CONDITION_OPS).meta({
      description:
        '`eq`, `ne` (equal or not), `gt`, `gte`, `lt`, `lte` (numbers, or strings such as ISO dates, compared as such), ' +
        '`in` (the field is one of `value`, an array), `contains` (an array field holds `value`, or a string field contains it).',
    }),
    value: z.union([scalar, z.array(scalar).max(100)]).meta({ description: 'What the field is compared with (an array for `in`).' }),
  })
  .meta({ id: 'AutomationCondition' });
export type Condition = z.infer<typeof condition>;

const percent = (what: string) => z.number().positive().max(1000).meta({ description: what });
const amount = (what: string) => z.number().positive().max(100_000_000).multipleOf(0.01).meta({ description: what });
const party = z.enum(['seller', 'buyer']).optional().meta({ description: 'Who answers: the party the offer was made to; default `seller`.' });
const note = (what: string) => z.string().trim().min(1).max(500).optional().meta({ description: what });
const hours = z.number().int().min(1).max(720).optional();

export const acceptOfferAction = z
  .strictObject({
    type: z.literal('accept_offer'),
    params: z
      .strictObject({ party, minPercentOfList: percent('Accept only an offer of at least this percentage of the item\'s list price (for its units); otherwise the run is skipped.').optional() })
      .optional(),
  })
  .meta({ id: 'AcceptOfferAction', description: 'Accepts the triggering offer (an `offer.*` trigger); the trade opens.' });

export const rejectOfferAction = z
  .strictObject({
    type: z.literal('reject_offer'),
    params: z
      .strictObject({ party, belowPercentOfList: percent('Reject only an offer below this percentage of the list price; otherwise skipped.').optional(), reason: note('Kept as the rejection\'s reason.') })
      .optional(),
  })
  .meta({ id: 'RejectOfferAction', description: 'Rejects the triggering offer.' });

export const counterOfferAction = z
  .strictObject({
    type: z.literal('counter_offer'),
    params: z
      .strictObject({
        party,
        belowPercentOfList: percent('Counter only an offer below this percentage of the list price; otherwise skipped.').optional(),
        percentOfList: percent('Counter at this percentage of the list price (for the offer\'s units).').optional(),
        amount: amount('Counter at this fixed amount.').optional(),
        message: note('A note with the counter-offer.'),
      })
      .refine((p) => (p.percentOfList === undefined) !== (p.amount === undefined), { message: 'give exactly one of percentOfList and amount', path: ['percentOfList'] }),
  })
  .meta({ id: 'CounterOfferAction', description: 'Counters the triggering offer, at a percentage of the list price or a fixed amount.' });

export const createOfferAction = z
  .strictObject({
    type: z.literal('create_offer'),
    params: z
      .strictObject({
        percentOfList: percent('The offer\'s price as a percentage of the item\'s list price (default 100), capped at the buyer request\'s maxPrice.').optional(),
        message: note('A note to the buyer.'),
        expiresInHours: hours.meta({ description: 'When it lapses (default 48).' }),
      })
      .optional(),
  })
  .meta({ id: 'CreateOfferAction', description: 'Makes a seller offer on the trigger\'s item for its buyer request (e.g. on `match.created`).' });

export const placeHoldAction = z
  .strictObject({
    type: z.literal('place_hold'),
    params: z
      .strictObject({
        quantity: z.number().int().min(1).max(10_000).optional().meta({ description: 'Units (default 1).' }),
        depositPercentOfList: percent('The deposit as a percentage of the held units\' list price (default 0).').optional(),
        expiresInHours: hours.meta({ description: 'How long it holds (default 24).' }),
      })
      .optional(),
  })
  .meta({ id: 'PlaceHoldAction', description: 'Holds units of the trigger\'s item (for its buyer request, when the event names one).' });

export const archiveBuyerRequestAction = z
  .strictObject({ type: z.literal('archive_buyer_request'), params: z.strictObject({ reason: note('Kept as the archive\'s reason.') }).optional() })
  .meta({ id: 'ArchiveBuyerRequestAction', description: 'Archives the trigger\'s buyer request.' });

export const repriceItemAction = z
  .strictObject({
    type: z.literal('reprice_item'),
    params: z
      .strictObject({
        percentOfPrice: percent('The new price as a percentage of the item\'s current price (e.g. 95 takes 5 % off).').optional(),
        price: amount('The new price.').optional(),
      })
      .refine((p) => (p.percentOfPrice === undefined) !== (p.price === undefined), { message: 'give exactly one of percentOfPrice and price', path: ['percentOfPrice'] }),
  })
  .meta({ id: 'RepriceItemAction', description: 'Sets the price of the trigger\'s item.' });

export const automationAction = z
  .discriminatedUnion('type', [acceptOfferAction, rejectOfferAction, counterOfferAction, createOfferAction, placeHoldAction, archiveBuyerRequestAction, repriceItemAction])
  .meta({ id: 'AutomationAction' });
export type AutomationAction = z.output<typeof automationAction>;
export type ActionType = AutomationAction['type'];
export const ACTION_TYPES: readonly ActionType[] = ['accept_offer', 'reject_offer', 'counter_offer', 'create_offer', 'place_hold', 'archive_buyer_request', 'reprice_item'];

/** The scope a key needs to do what the action does (checked when the rule is set and when it fires). */
export const ACTION_SCOPE = {
  accept_offer: 'write:trades',
  reject_offer: 'write:trades',
  counter_offer: 'write:trades',
  create_offer: 'write:trades',
  place_hold: 'write:trades',
  archive_buyer_request: 'write:requests',
  reprice_item: 'write:inventory',
} as const satisfies Record<ActionType, string>;

/** The public data fields the triggering event must carry for the action to know what it acts on. */
export const ACTION_TARGETS: Readonly<Record<ActionType, readonly string[]>> = {
  accept_offer: ['offer_id'],
  reject_offer: ['offer_id'],
  counter_offer: ['offer_id'],
  create_offer: ['inventory_item_id', 'buyer_request_id'],
  place_hold: ['inventory_item_id'],
  archive_buyer_request: ['buyer_request_id'],
  reprice_item: ['inventory_item_id'],
};

/** Whether the event's public data meets every condition (a field it lacks meets none). */
export function meetsConditions(data: Readonly<Record<string, unknown>>, conditions: readonly Condition[]): boolean {
  return conditions.every((c) => meets(data, c));
}

export function meets(data: Readonly<Record<string, unknown>>, { field, op, value }: Condition): boolean {
  if (!Object.hasOwn(data, field)) return false;
  const actual = data[field];
  switch (op) {
    case 'eq':
      return same(actual, value);
    case 'ne':
      return !same(actual, value);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const comparable = (typeof actual === 'number' && typeof value === 'number') || (typeof actual === 'string' && typeof value === 'string');
      if (!comparable) return false;
      const a = actual as number | string;
      const b = value as number | string;
      return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
    }
    case 'in':
      return Array.isArray(value) && value.some((v) => same(actual, v));
    case 'contains':
      if (Array.isArray(actual)) return actual.some((a) => same(a, value));
      return typeof actual === 'string' && typeof value === 'string' && actual.includes(value);
    default: {
      const never: never = op;
      throw new Error(`Unknown operator ${String(never)}`);
    }
  }
}

function same(a: unknown, b: unknown): boolean {
  return !Array.isArray(b) && a === b;
}
