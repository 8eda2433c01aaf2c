// Read model of match packs: by id, and per buyer request newest first.
import { documentProjection, streamEntityId, type StreamDoc } from '@app/platform';

import { type PackedMatch, parseMatchCompleted } from './match-pack.events';

export interface MatchPackDoc extends StreamDoc {
  workspaceId: string;
  buyerRequestId: string;
  matches: PackedMatch[];
  fullCount: number;
  nearMissCount: number;
  createdAt: string;
}

export const MATCH_PACKS = {
  name: 'match_packs',
  indexes: [
    { name: 'by_ws_created', fields: [['workspaceId', 1], ['createdAt', -1], ['id', -1]] },
    { name: 'by_ws_request_created', fields: [['workspaceId', 1], ['buyerRequestId', 1], ['createdAt', -1], ['id', -1]] },
  ],
} as const;

export const matchPackProjection = documentProjection<MatchPackDoc>({
  name: 'match_packs',
  version: 1,
  // The match pack routes' own read model: the run that stores a pack brings it up to date.
  inline: true,
  collection: MATCH_PACKS,
  eventTypes: ['match.completed'],
  evolve(_doc, event) {
    const d = parseMatchCompleted(event);
    return {
      id: streamEntityId(event.streamId),
      revision: event.revision,
      workspaceId: event.metadata.workspaceId,
      buyerRequestId: d.buyerRequestId,
      matches: d.matches,
      fullCount: d.fullCount,
      nearMissCount: d.nearMissCount,
      createdAt: d.createdAt,
    };
  },
});
