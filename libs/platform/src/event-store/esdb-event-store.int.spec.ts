// Runs the EventStore contract against EventStoreDB: the server in ESDB_CONNECTION_STRING, else a
// throwaway container when a container runtime answers, else the suite is skipped (said once).
import type { StartedTestContainer } from 'testcontainers';

import { esdbBackend, startEsdb } from '@app/testing/support/backends';
import { eventStoreContract } from '@app/testing/contracts/event-store.contract';

import { EsdbEventStore } from './esdb-event-store';

const chosen = esdbBackend();

if (chosen.kind === 'none') {
  // One line, not jest's multi-line console block.
  process.stdout.write(`[esdb] skipped: no ESDB_CONNECTION_STRING and no container runtime (${chosen.reason})\n`);
  describe.skip('EsdbEventStore (no EventStoreDB available)', () => {
    it('runs the EventStore contract', () => undefined);
  });
} else {
  let container: StartedTestContainer | undefined;
  let connectionString = chosen.kind === 'env' ? chosen.url : '';

  beforeAll(async () => {
    if (chosen.kind !== 'container') return;
    ({ url: connectionString, container } = await startEsdb());
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  });

  eventStoreContract('EventStoreDB', async () => {
    let store = new EsdbEventStore(connectionString);
    return {
      store,
      reopen: async () => {
        await store.close();
        store = new EsdbEventStore(connectionString);
        return store;
      },
      cleanup: () => store.close(),
    };
  });
}
