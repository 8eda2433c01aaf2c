// Answers an intake push's `matchedBuyerRequests`: once reverse matching has handled the pushed
// items (and the read models show what it recorded), the requests that gained full matches.
import { Inject, Injectable } from '@nestjs/common';

import { MATCHES, type MatchDoc } from '@app/demand';
import { EVENT_STORE, type EventStore, ProcessManagerRunner, ProjectionRunner, READ_STORE, type ReadStore } from '@app/platform';
import type { IntakeMatching } from '@app/supply';

import { REVERSE_MATCHING } from './reverse-matching';

const WAIT_MS = 60_000;
const IN_CHUNK = 500;

@Injectable()
export class IntakeMatchingService implements IntakeMatching {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly processManagers: ProcessManagerRunner,
    private readonly projections: ProjectionRunner,
  ) {}

  async matchedBuyerRequests(workspaceId: string, inventoryItemIds: readonly string[], position: number): Promise<number> {
    if (inventoryItemIds.length === 0) return 0;
    await this.processManagers.waitFor(REVERSE_MATCHING, position, WAIT_MS);
    await this.projections.waitFor(await this.events.headPosition(), WAIT_MS);
    const matches = this.reads.collection<MatchDoc>(MATCHES);
    const requests = new Set<string>();
    for (let i = 0; i < inventoryItemIds.length; i += IN_CHUNK) {
      const chunk = inventoryItemIds.slice(i, i + IN_CHUNK);
      let cursor: string | undefined;
      do {
        const page = await matches.find({ workspaceId, inventoryItemId: { $in: chunk }, kind: 'full' }, { limit: 1000, after: cursor });
        for (const m of page.items) requests.add(m.buyerRequestId);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    }
    return requests.size;
  }
}
