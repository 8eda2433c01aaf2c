// The authenticator keeps key documents in memory; a change to the read store — here a revocation
// applied by another connection, as by another process or this process's projections — must show
// on the very next request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Clock } from '@app/platform';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';

import { ApiKeyAuthenticator } from './api-key.authenticator';
import { API_KEYS, type ApiKeyDoc } from './api-key.projection';
import { generateSecret, hashSecret } from './api-key.secret';
import { ApiKeyUsage } from './api-key.usage';

const clock: Clock = { now: () => new Date('2026-03-01T10:00:00.000Z') };
const keyId = 'key_01M81WZ1X6EQCPC957C4TF9023';

describe('ApiKeyAuthenticator', () => {
  let dir: string;
  let server: SqliteReadStore;
  let other: SqliteReadStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cc-auth-'));
    server = new SqliteReadStore(join(dir, 'read.db'));
    other = new SqliteReadStore(join(dir, 'read.db'));
  });

  afterEach(async () => {
    await server.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves repeated requests from memory, and sees a revocation on the next request', async () => {
    const secret = generateSecret(keyId);
    const doc: ApiKeyDoc = {
      id: keyId,
      revision: 0,
      workspaceId: 'ws_1',
      name: 'ci',
      scopes: ['admin'],
      secretHash: hashSecret(secret),
      status: 'active',
      createdAt: clock.now().toISOString(),
      revokedAt: null,
    };
    await other.collection<ApiKeyDoc>(API_KEYS).put(doc);
    const auth = new ApiKeyAuthenticator(server, new ApiKeyUsage(server, clock));

    expect(await auth.authenticate(secret)).toEqual({ workspaceId: 'ws_1', keyId, scopes: ['admin'] });
    // The first use is also noted (a write, at most once a minute), which moves the change token.
    expect(await auth.authenticate(secret)).not.toBeNull();
    const reads = jest.spyOn(server, 'collection');
    expect(await auth.authenticate(secret)).not.toBeNull();
    expect(reads).not.toHaveBeenCalled(); // cached: nothing changed

    await other.collection<ApiKeyDoc>(API_KEYS).patch(keyId, { status: 'revoked', revokedAt: clock.now().toISOString() });
    expect(await auth.authenticate(secret)).toBeNull();
    expect(await auth.authenticate(`${secret.slice(0, -1)}x`)).toBeNull(); // and a wrong secret never passes
  });
});
