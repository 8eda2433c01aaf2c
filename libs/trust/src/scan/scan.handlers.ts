// Recording a scan: a visitor followed a seller's badge link or QR code. A visitor's repeats within
// 30 minutes count once (remembered by an HMAC of the IP and the seller, never the IP); what is
// recorded is the time, `via` and the referring page's origin — never its path or query.
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

import { Inject, Optional } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';

import { CLOCK, type Clock, EVENT_STORE, type EventStore, SECRET_BOX, type SecretBox } from '@app/platform';
import { handleCommand } from '@app/platform/domain';

import { scanAggregate } from './scan.decider';
import { type ScanRecorded, scanStream } from './scan.events';

const REPEAT_WINDOW_MS = 30 * 60_000;
const VISITORS_KEPT = 100_000;

/** Remembers who scanned what lately, by an HMAC of (IP, seller): a repeat within the window is not counted. */
export class ScanDeduper {
  private readonly seen = new Map<string, number>();
  private readonly key: KeyObject; // made once: a raw Buffer key is turned into one on every HMAC

  constructor(key: Buffer) {
    this.key = createSecretKey(key);
  }

  /** True when this visitor's scan of this seller counts now. */
  admit(ip: string, workspaceId: string, now: number): boolean {
    const id = createHmac('sha256', this.key).update(`${ip}|${workspaceId}`).digest('base64url');
    const last = this.seen.get(id);
    if (last !== undefined && now - last < REPEAT_WINDOW_MS) return false;
    this.seen.delete(id);
    if (this.seen.size >= VISITORS_KEPT) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(id, now);
    return true;
  }
}

/** The origin of a Referer header (scheme, host, port), never its path or query; null when absent or not http(s). */
export function referrerOrigin(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** A visitor's scan of a seller's badge or QR code; recorded unless the visitor scanned it lately. */
export class RecordScanCommand extends Command<{ recorded: boolean }> {
  constructor(
    readonly workspaceId: string,
    /** The visitor's address: only its HMAC is kept, in memory, for the repeat window. */
    readonly ip: string,
    readonly via: ScanRecorded['via'],
    /** The Referer header as sent (only its origin is recorded). */
    readonly referer: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(RecordScanCommand)
export class RecordScanHandler implements ICommandHandler<RecordScanCommand> {
  private readonly deduper: ScanDeduper;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(SECRET_BOX) box?: SecretBox,
  ) {
    this.deduper = new ScanDeduper(box ? box.deriveKey('trust-scan-visitor') : Buffer.from(createHash('sha256').update(String(Math.random())).digest()));
  }

  async execute({ workspaceId, ip, via, referer }: RecordScanCommand): Promise<{ recorded: boolean }> {
    const now = this.clock.now();
    if (!this.deduper.admit(ip, workspaceId, now.getTime())) return { recorded: false };
    const scan = { via, referrerOrigin: referrerOrigin(referer), at: now.toISOString() };
    await handleCommand(this.events, scanStream(workspaceId), scanAggregate, { type: 'RecordScan', scan }, { workspaceId, actor: 'public' }, { appendOnly: true });
    return { recorded: true };
  }
}

export const SCAN_COMMAND_HANDLERS = [RecordScanHandler];
