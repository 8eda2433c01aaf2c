// Answers an intake push's `matchedBuyerRequests` from the log, the source of truth: once reverse
// matching has handled the pushed items, the requests whose recorded full matches (their
// `buyer_request.matches_recorded` events, or an old log's `buyer_request.matched`) name one of them. Counting from the log (not the read models) lets the push answer as soon as the
// matches are recorded; the requests' read models follow within moments.
import { Inject, Injectable } from '@nestjs/common';

import { parseMatchesRecorded } from '@app/demand';
import { EVENT_STORE, type EventStore, ProcessManagerRunner } from '@app/platform';
import { type IntakeMatching, inventoryStream } from '@app/supply';

import { REVERSE_MATCHING } from './reverse-matching';

const WAIT_MS = 60_000;
const PAGE = 2000;

@Injectable()
export class IntakeMatchingService implements IntakeMatching {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly processManagers: ProcessManagerRunner,
  ) {}

  async matchedBuyerRequests(workspaceId: string, inventoryItemIds: readonly string[], position: number): Promise<number> {
    if (inventoryItemIds.length === 0) return 0;
    await this.processManagers.waitFor(REVERSE_MATCHING, position, WAIT_MS);
    // Items are appended in order: nothing matched them before the first one existed.
    const [first] = await this.events.readStream(inventoryStream(inventoryItemIds[0]));
    const items = new Set(inventoryItemIds);
    const requests = new Set<string>();
    for (let after = (first?.position ?? 1) - 1; ; ) {
      const page = await this.events.readAll({ fromPosition: after, limit: PAGE, filter: { types: ['buyer_request.matches_recorded', 'buyer_request.matched'] } });
      for (const event of page) {
        if (event.metadata.workspaceId !== workspaceId || requests.has(event.streamId)) continue;
        if (parseMatchesRecorded(event).full.some((m) => items.has(m.inventoryItemId))) requests.add(event.streamId);
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].position;
    }
    return requests.size;
  }
}
