// The public event catalogue as the three composition roots (API, worker, CLI) hand it to the
// webhooks context: every context's own public events, in the catalogue's order. Adding a
// context's events touches only that context and this list.
import { BUYER_REQUEST_PUBLIC_EVENTS } from '@app/demand';
import { MATCH_PACK_PUBLIC_EVENTS } from '@app/matching';
import { LIVE_SESSION_PUBLIC_EVENTS, LOT_PUBLIC_EVENTS } from '@app/live';
import type { PublicEventType } from '@app/platform';
import { INVENTORY_PUBLIC_EVENTS } from '@app/supply';
import { HOLD_PUBLIC_EVENTS, OFFER_PUBLIC_EVENTS, TRADE_PUBLIC_EVENTS } from '@app/trading';
import { TRUST_PUBLIC_EVENTS } from '@app/trust';


export const PUBLIC_EVENTS: readonly PublicEventType[] = [
  ...BUYER_REQUEST_PUBLIC_EVENTS,
  ...MATCH_PACK_PUBLIC_EVENTS,
  ...OFFER_PUBLIC_EVENTS,
  ...TRADE_PUBLIC_EVENTS,
  ...HOLD_PUBLIC_EVENTS,
  ...INVENTORY_PUBLIC_EVENTS,
  ...LIVE_SESSION_PUBLIC_EVENTS,
  ...LOT_PUBLIC_EVENTS,
  ...TRUST_PUBLIC_EVENTS,
];
