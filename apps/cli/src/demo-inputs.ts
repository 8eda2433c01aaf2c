// The checks a route's schema would make of the inputs the seed builds: the seed writes through the
// CommandBus, not the routes, so it checks its own inputs against the same bounds first.
import { ApiError, currencyCode, findHostileText, moneyAmount } from '@app/platform';

/** The limits the routes' schemas put on the text fields the seed fills (trimmed, 1 to n characters). */
const TEXT_LIMITS = {
  item: { cardName: 200, setName: 200, condition: 60, sku: 100, cardNumber: 40, notes: 2000 },
  request: { cardName: 200, setName: 200, condition: 60, source: 100, 'buyer.displayName': 200 },
  offer: { message: 1000 },
  move: { reference: 200, carrier: 100, trackingNumber: 100 },
} as const;
/** The inventory route's bound on units. */
const MAX_QUANTITY = 100_000;

/**
 * Refuses (as a bug: the plan made it) an input a route's schema would refuse: text untrimmed,
 * empty or too long, a character the API refuses anywhere, an amount that is not a price with at
 * most 2 decimals, a currency that is not an ISO 4217 code, a quantity out of bounds.
 */
export function requireValid(what: keyof typeof TEXT_LIMITS, input: object, amountsMinor: number[], quantity?: number): void {
  const problems: string[] = [];
  const hostile = findHostileText(input);
  if (hostile) problems.push(`${hostile.path} contains ${hostile.found}`);
  for (const [path, max] of Object.entries(TEXT_LIMITS[what])) {
    const value = path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | null | undefined)?.[key], input);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.trim() !== value || value.length < 1 || value.length > max) problems.push(`${path} is not 1 to ${max} trimmed characters`);
  }
  for (const minor of amountsMinor) if (!(Number.isInteger(minor) && moneyAmount.safeParse(minor / 100).success)) problems.push(`${minor} is not an amount in minor units`);
  const currency = (input as { currency?: unknown }).currency;
  if (currency !== undefined && currencyCode.safeParse(currency).data !== currency) problems.push(`${String(currency)} is not an ISO 4217 code`);
  if (quantity !== undefined && !(Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY)) problems.push(`quantity ${quantity} is out of bounds`);
  if (problems.length > 0) throw new ApiError(500, 'INTERNAL', `demo seed: the plan made an invalid ${what}: ${problems.join('; ')}`);
}
