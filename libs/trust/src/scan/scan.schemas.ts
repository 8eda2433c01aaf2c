// Request and response schemas of GET /trust/scans.
import { z } from 'zod';

import { isoInstant } from '@app/platform';

export const scansQuery = z.object({
  from: isoInstant.optional().meta({ description: 'First day (its UTC date counts); default 30 days ago.' }),
  to: isoInstant.optional().meta({ description: 'Last day (its UTC date counts); default today.' }),
});

export const scansResponse = z
  .strictObject({
    from: z.string().meta({ description: 'YYYY-MM-DD.' }),
    to: z.string(),
    total: z.number().int(),
    data: z.array(z.strictObject({ date: z.string(), count: z.number().int(), badge: z.number().int(), qr: z.number().int() })).meta({ description: 'Days with scans, oldest first.' }),
  })
  .meta({ id: 'TrustScans' });


// Example (checked against its schema by the OpenAPI tests).
export const scansExample = { from: '2026-10-27', to: '2026-11-25', total: 5, data: [{ date: '2026-11-24', count: 3, badge: 2, qr: 1 }, { date: '2026-11-25', count: 2, badge: 2, qr: 0 }] };
