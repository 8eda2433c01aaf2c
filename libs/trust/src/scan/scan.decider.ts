// A scan is a fact: recorded as it comes (the visitor dedup in front decides which are counted).
// Pure.
import type { Decider } from '@app/platform/domain';

import { parseScanEvent, type ScanEvent, type ScanRecorded } from './scan.events';

export const scanDecider: Decider<{ type: 'RecordScan'; scan: ScanRecorded }, ScanEvent, null> = {
  initialState: null,
  decide: (command) => [{ type: 'trust.scan_recorded', data: command.scan }],
  evolve: (state) => state,
};

export const scanAggregate = { decider: scanDecider, parseEvent: parseScanEvent };
