// Scan days, given/when/then: each scan counts on its seller's UTC day, by where it came from, and
// applying a scan twice counts it once.
import type { RecordedEvent } from '@app/platform';
import { viewSpec } from '@app/testing/support/view-spec';

import { SCAN_DAYS, type ScanDayDoc, scanDaysProjection } from './scan.projection';

const scan = (workspaceId: string, via: 'badge' | 'qr', at: string, position: number): RecordedEvent => ({
  id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
  type: 'trust.scan_recorded',
  data: { via, referrerOrigin: null, at },
  metadata: { workspaceId, correlationId: 'c', actor: 'public', schemaVersion: 1 },
  streamId: `trust_scans-${workspaceId}`,
  revision: position,
  position,
  createdAt: at,
});
const day = (workspaceId: string, date: string, counts: Pick<ScanDayDoc, 'count' | 'badge' | 'qr' | 'lastPosition'>): ScanDayDoc => ({
  id: `${workspaceId}:${date}`,
  workspaceId,
  day: date,
  ...counts,
});

describe('scan days projection', () => {
  it('counts scans per seller and UTC day, by badge and QR code', () => {
    viewSpec(scanDaysProjection)
      .given()
      .when(
        scan('ws_1', 'badge', '2026-11-24T23:59:59.000Z', 1),
        scan('ws_1', 'qr', '2026-11-25T00:00:00.000Z', 2),
        scan('ws_1', 'badge', '2026-11-25T08:00:00.000Z', 3),
        scan('ws_2', 'qr', '2026-11-25T09:00:00.000Z', 4),
      )
      .then({
        [SCAN_DAYS.name]: [
          day('ws_1', '2026-11-24', { count: 1, badge: 1, qr: 0, lastPosition: 1 }),
          day('ws_1', '2026-11-25', { count: 2, badge: 1, qr: 1, lastPosition: 3 }),
          day('ws_2', '2026-11-25', { count: 1, badge: 0, qr: 1, lastPosition: 4 }),
        ],
      });
  });

  it('applied twice is counted once', () => {
    viewSpec(scanDaysProjection)
      .given({ [SCAN_DAYS.name]: [day('ws_1', '2026-11-25', { count: 2, badge: 1, qr: 1, lastPosition: 3 })] })
      .when(scan('ws_1', 'badge', '2026-11-25T08:00:00.000Z', 3), scan('ws_1', 'qr', '2026-11-25T10:00:00.000Z', 5))
      .then({ [SCAN_DAYS.name]: [day('ws_1', '2026-11-25', { count: 3, badge: 1, qr: 2, lastPosition: 5 })] });
  });
});
