// Request and response schemas of /api/v1/buyers (they validate and they document).
import { z } from 'zod';

import { BUYER_ID_PATTERN } from './buyer-id';

export const buyerIdParams = z.object({
  id: z
    .string()
    .regex(BUYER_ID_PATTERN, 'A buyer id is `buyer_` and 26 characters a-z, 2-7')
    .meta({ description: 'Buyer id (`buyer_…`), as the want-list answer and buyer requests name it.', examples: ['buyer_k3v5x7z2b4d6f3h2j4l6n5p2r4'] }),
});

export const erasedPersonalDataResponse = z
  .strictObject({
    buyerId: z.string().meta({ description: 'The buyer (`buyer_…`): the id stays, it names no one.' }),
    personalData: z.literal('erased').meta({ description: 'The buyer\'s data key is destroyed: their contacts no longer open anywhere, the event log included.' }),
    erasedAt: z.iso.datetime().meta({ description: 'When the key was destroyed (a repeat answers the first erasure).' }),
    buyerRequestCount: z.number().int().min(0).meta({ description: 'Buyer requests of this buyer, which keep their criteria and lose their contact.' }),
  })
  .meta({ id: 'ErasedPersonalData' });

export const erasedPersonalDataExample: z.output<typeof erasedPersonalDataResponse> = {
  buyerId: 'buyer_k3v5x7z2b4d6f3h2j4l6n5p2r4',
  personalData: 'erased',
  erasedAt: '2025-11-23T09:00:00.000Z',
  buyerRequestCount: 2,
};
