import type { RecordedEvent } from '@app/platform';

import { RENEW_AT, renewalSource } from './seller-trust.renewal';

const issued = (issuedAt: string, validUntil: string): RecordedEvent => ({
  id: 'e1',
  type: 'trust.credential_issued',
  streamId: 'trust-ws_1',
  revision: 0,
  position: 1,
  createdAt: issuedAt,
  metadata: { workspaceId: 'ws_1', schemaVersion: 1 },
  data: {
    credentialId: 'urn:uuid:1',
    issuedAt,
    validUntil,
    kid: 'did:key:z#z',
    subject: {
      type: 'SellerTrustScore', credentialId: 'urn:uuid:1', seller: { id: 'ws_1', slug: 'acme', name: 'Acme' }, score: null, tier: 'new_seller',
      formula: 'trust-v1', factors: [], inputsHash: 'sha256:00', inputsCount: 1, asOf: issuedAt,
    },
    statusListCredential: 'https://x/api/v1/trust/status/ws_1',
    statusListIndex: 0,
    jws: 'sig',
    proofValue: 'zsig',
    inputsPosition: 1,
    reason: 'inputs',
  },
});

describe('credential renewal timers', () => {
  it('schedules one renewal per seller at four fifths of the credential\'s validity; the next credential replaces it', () => {
    const { schedule } = renewalSource.timersOf(issued('2026-01-01T00:00:00.000Z', '2026-01-11T00:00:00.000Z'));
    expect(RENEW_AT).toBe(0.8);
    expect(schedule).toEqual([{ timerId: 'trust-renewal:ws_1', kind: 'trust.renewal', dueAt: '2026-01-09T00:00:00.000Z', workspaceId: 'ws_1', subjectId: 'ws_1' }]);
    const next = renewalSource.timersOf(issued('2026-01-05T00:00:00.000Z', '2026-01-15T00:00:00.000Z')).schedule ?? [];
    expect(next.map((t) => [t.timerId, t.dueAt])).toEqual([['trust-renewal:ws_1', '2026-01-13T00:00:00.000Z']]);
  });
});
