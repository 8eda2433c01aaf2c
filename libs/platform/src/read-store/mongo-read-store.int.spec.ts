// Runs the ReadStore contract against MongoDB: MONGO_URL when set (it must be a replica set, for
// transactions), else a throwaway mongo:7 single-node replica set through testcontainers when a
// container runtime answers, else the suite is skipped — visibly, never passed.
import { randomBytes } from 'node:crypto';

import { MongoClient } from 'mongodb';
import type { StartedTestContainer } from 'testcontainers';

import { readStoreContract } from '@app/testing/contracts/read-store.contract';
import { mongoBackend, startMongoReplicaSet } from '@app/testing/support/backends';

import { MongoReadStore } from './mongo-read-store';

const chosen = mongoBackend();

if (chosen.kind === 'none') {
  // Written straight to stderr: jest drops console output of a file whose tests are all skipped.
  process.stderr.write(`[mongo] skipped: no MONGO_URL and no container runtime (${chosen.reason})\n`);
  describe.skip('MongoReadStore', () => {
    it('runs the ReadStore contract', () => undefined);
  });
} else {
  describe('MongoReadStore', () => {
    let url = chosen.kind === 'env' ? chosen.url : '';
    let container: StartedTestContainer | undefined;

    beforeAll(async () => {
      if (chosen.kind !== 'container') return;
      ({ url, container } = await startMongoReplicaSet());
    }, 180_000);
    afterAll(async () => {
      await container?.stop();
    });

    // A database per run, dropped afterwards, so a shared MONGO_URL server is left as found.
    readStoreContract('mongo', async () => {
      const dbName = `read_store_test_${randomBytes(4).toString('hex')}`;
      const store = await MongoReadStore.connect(url, dbName);
      const cleanup = async (): Promise<void> => {
        const client = await MongoClient.connect(url);
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      };
      return { store, cleanup };
    });
  });
}
