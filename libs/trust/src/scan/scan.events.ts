// Stored contract of scan tracking (stream `trust_scans-<workspaceId>`): a visitor followed a
// seller's badge link or QR code to the verification page. Internal (never a webhook), and holding
// no personal data: the time, where it came from (`badge` / `qr`), and the referring page's origin
// only — never an IP address, a path or a query.
import { z } from 'zod';

import { parseOnce, type RecordedEvent } from '@app/platform/domain';

export const SCAN_VIAS = ['badge', 'qr'] as const;

export const scanRecorded = z.object({ via: z.enum(SCAN_VIAS), referrerOrigin: z.string().nullable(), at: z.string() });
export type ScanRecorded = z.infer<typeof scanRecorded>;

export type ScanEvent = { type: 'trust.scan_recorded'; data: ScanRecorded };
export const SCAN_EVENT_TYPES = ['trust.scan_recorded'] as const;

export const parseScanEvent = parseOnce((event: RecordedEvent): ScanEvent => {
  if (event.type !== 'trust.scan_recorded') throw new Error(`Not a scan event: ${event.type}`);
  return { type: event.type, data: scanRecorded.parse(event.data) };
});

export const scanStream = (workspaceId: string) => `trust_scans-${workspaceId}`;
