// The scoring process manager's catch-up rule, on a real read store: far behind the log's head it
// issues nothing for outcomes (the projection keeps who is owed one), and near the head it issues
// for the batch's sellers and for every seller still owed a credential — once each.
import type { EventStore, RecordedEvent } from '@app/platform';
import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';

import type { CredentialIssuer } from './seller-trust.issuer';
import { PENDING, type PendingDoc } from './seller-trust.projection';
import { CATCH_UP_GAP, TrustScoring } from './seller-trust.scoring';

const outcome = (workspaceId: string, position: number, to = 'completed'): RecordedEvent =>
  ({ id: `e${position}`, type: 'trade.status_changed', position, revision: 0, streamId: `trade-${position}`, data: { to }, metadata: { workspaceId }, createdAt: '' }) as unknown as RecordedEvent;

describe('trust scoring: a catch-up issues once per seller, near the head', () => {
  let stores: TempStores;
  let head: number;
  let issued: Array<{ workspaceId: string; reason: string }>;
  let refuse: Set<string>;
  let scoring: TrustScoring;

  beforeEach(() => {
    stores = openTempStores('trust-scoring-');
    head = 0;
    issued = [];
    refuse = new Set();
    const issuer = {
      issue: async (workspaceId: string, reason: string) => {
        issued.push({ workspaceId, reason });
        return refuse.has(workspaceId) ? null : `urn:uuid:${issued.length}`;
      },
    } as unknown as CredentialIssuer;
    const events = { headPosition: async () => head } as unknown as EventStore;
    scoring = new TrustScoring(issuer, events, stores.reads);
  });

  afterEach(() => closeTempStores(stores));

  const owe = (workspaceId: string, upTo: number) => stores.reads.collection<PendingDoc>(PENDING).put({ id: workspaceId, upTo });

  it('near the head: one issuance per seller of the batch', async () => {
    head = 12;
    await scoring.handle([outcome('ws_a', 10), outcome('ws_a', 11), outcome('ws_b', 12, 'cancelled')]);
    expect(issued).toEqual([
      { workspaceId: 'ws_a', reason: 'inputs' },
      { workspaceId: 'ws_b', reason: 'inputs' },
    ]);
  });

  it('far behind the head: nothing for outcomes; the first batch near the head issues for everyone owed', async () => {
    head = 100 + CATCH_UP_GAP + 1;
    for (let position = 1; position <= 50; position += 1) {
      await owe(position % 2 ? 'ws_a' : 'ws_b', position);
      await scoring.handle([outcome(position % 2 ? 'ws_a' : 'ws_b', position)]);
    }
    expect(issued).toEqual([]);
    // A reinstatement is not an outcome: it issues at once, even in a catch-up.
    await scoring.handle([{ ...outcome('ws_c', 51), type: 'trust.seller_reinstated' } as RecordedEvent]);
    expect(issued).toEqual([{ workspaceId: 'ws_c', reason: 'reinstated' }]);
    issued = [];
    head = 100;
    await scoring.handle([outcome('ws_a', 99)]);
    expect(issued.map((i) => i.workspaceId).sort()).toEqual(['ws_a', 'ws_b']);
  });

  it('a seller owed but refused (flagged) is not tried again until it is owed more', async () => {
    head = 10;
    refuse.add('ws_f');
    await owe('ws_f', 5);
    await scoring.handle([outcome('ws_x', 9)]);
    await scoring.handle([outcome('ws_y', 10)]);
    expect(issued.filter((i) => i.workspaceId === 'ws_f')).toHaveLength(1);
    await owe('ws_f', 8);
    await scoring.handle([outcome('ws_z', 10)]);
    expect(issued.filter((i) => i.workspaceId === 'ws_f')).toHaveLength(2);
  });
});
