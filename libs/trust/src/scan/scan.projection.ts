// Badge and QR scans counted per seller and UTC day: what GET /trust/scans lists. A view of its
// own (scans change nothing else trust reads). Pure: `evolve` yields its reads and writes.
// Idempotent on replay: a day remembers the last log position it counted.
import { type CollectionSpec, type Doc, view, viewProjection } from '@app/platform';

import { parseScanEvent, SCAN_EVENT_TYPES } from './scan.events';

export const SCAN_DAYS: CollectionSpec = { name: 'trust_scan_days', indexes: [{ name: 'by_workspace_day', fields: [['workspaceId', 1], ['day', 1]] }] };

export interface ScanDayDoc extends Doc {
  workspaceId: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
  badge: number;
  qr: number;
  lastPosition: number;
}

export const scanDaysProjection = viewProjection({
  name: 'trust_scans',
  version: 1,
  collections: [SCAN_DAYS],
  eventTypes: SCAN_EVENT_TYPES,
  *evolve(event) {
    const scan = parseScanEvent(event).data;
    const workspaceId = event.metadata.workspaceId;
    const day = scan.at.slice(0, 10);
    const id = `${workspaceId}:${day}`;
    const current = yield* view.get<ScanDayDoc>(SCAN_DAYS, id);
    if (current && current.lastPosition >= event.position) return;
    const base = current ?? { id, workspaceId, day, count: 0, badge: 0, qr: 0, lastPosition: -1 };
    yield* view.put<ScanDayDoc>(SCAN_DAYS, {
      ...base,
      count: base.count + 1,
      badge: base.badge + (scan.via === 'badge' ? 1 : 0),
      qr: base.qr + (scan.via === 'qr' ? 1 : 0),
      lastPosition: event.position,
    });
  },
});
