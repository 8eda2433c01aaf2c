// Stored contract of the buyer request aggregate. `buyer_request.created` is public (webhooks).
import { z } from 'zod';

import type { RecordedEvent } from '@app/platform';

export const buyerRequestCreated = z.object({
  buyerRequestId: z.string(),
  cardName: z.string(),
  setName: z.string(),
  condition: z.string(),
  maxPriceMinor: z.number().int(),
  currency: z.string(),
  source: z.string().nullable(),
  createdAt: z.string(),
});

export type BuyerRequestCreated = z.infer<typeof buyerRequestCreated>;

export type BuyerRequestEvent = { type: 'buyer_request.created'; data: BuyerRequestCreated };

export function parseBuyerRequestEvent(event: RecordedEvent): BuyerRequestEvent {
  switch (event.type) {
    case 'buyer_request.created':
      return { type: event.type, data: buyerRequestCreated.parse(event.data) };
    default:
      throw new Error(`Not a buyer request event: ${event.type}`);
  }
}

export const buyerRequestStream = (id: string) => `buyer_request-${id}`;
