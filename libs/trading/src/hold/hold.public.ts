// The public events of holds: what each means, its `data` fields (snake_case) and how a stored
// event becomes that data. Every hold event carries the hold's facts (see holdFacts).
import { eventField as f, fromMinor, type PublicEventType } from '@app/platform';

import { holdFacts } from './hold.events';

const fields = {
  hold_id: f('string', 'Hold id (`hld_…`).'),
  inventory_item_id: f('string', 'The held item (`inv_…`).'),
  deposit_amount: f('number', 'Deposit, a decimal with at most 2 places.'),
  currency: f('string', 'ISO 4217 code.'),
  expires_at: f('string', 'ISO 8601 UTC: when the hold lapses unless converted.'),
  status: f('string', 'The hold\'s status after this event.'),
};

function holdEvent(type: string, description: string, status: string, extra: PublicEventType['data'] = {}, more?: (raw: Record<string, unknown>) => Record<string, unknown>): PublicEventType {
  return {
    type,
    description,
    data: { ...fields, ...extra },
    toData(event) {
      const raw = event.data as Record<string, unknown>;
      const d = holdFacts.parse(raw);
      return {
        hold_id: d.holdId,
        inventory_item_id: d.inventoryItemId,
        deposit_amount: fromMinor(d.depositMinor),
        currency: d.currency,
        expires_at: d.expiresAt,
        status,
        ...(more ? more(raw) : {}),
      };
    },
  };
}

export const HOLD_PUBLIC_EVENTS: readonly PublicEventType[] = [
  holdEvent('hold.created', 'A new hold was placed: its units are reserved until it expires.', 'active', {
    quantity: f('integer', 'Units held.'),
  }, (raw) => ({ quantity: raw.quantity })),
  holdEvent('hold.deposit_paid', 'A hold\'s deposit payment was received.', 'active', {
    reference: f('string|null', 'The payment reference, when given.'),
  }, (raw) => ({ reference: raw.reference })),
  holdEvent('hold.expired', 'A hold expired without conversion; its units are available again.', 'expired'),
  holdEvent('hold.converted', 'A hold was converted into a trade (its units pass to the trade).', 'converted', {
    trade_id: f('string', 'The trade (`trd_…`).'),
  }, (raw) => ({ trade_id: raw.tradeId })),
  holdEvent('hold.released', 'A hold was released before it expired; its units are available again.', 'released', {
    reason: f('string|null', 'Why, when given.'),
  }, (raw) => ({ reason: raw.reason })),
];
