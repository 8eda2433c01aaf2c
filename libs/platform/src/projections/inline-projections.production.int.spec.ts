// Answering from the write on production's stores, EventStoreDB + MongoDB (see the contract):
// ESDB_CONNECTION_STRING and MONGO_URL when set, else throwaway containers when a container
// runtime answers, else skipped with one line saying why.
import { randomBytes } from 'node:crypto';

import { MongoClient } from 'mongodb';
import type { StartedTestContainer } from 'testcontainers';

import { inlineProjectionsContract } from '@app/testing/contracts/inline-projections.contract';
import { esdbBackend, mongoBackend, startEsdb, startMongoReplicaSet } from '@app/testing/support/backends';

import { EsdbEventStore } from '../event-store/esdb-event-store';
import { MongoReadStore } from '../read-store/mongo-read-store';

const esdb = esdbBackend();
const mongo = mongoBackend();

if (esdb.kind === 'none' || mongo.kind === 'none') {
  const why = [esdb.kind === 'none' ? `EventStoreDB: ${esdb.reason}` : '', mongo.kind === 'none' ? `MongoDB: ${mongo.reason}` : ''].filter(Boolean).join('; ');
  process.stdout.write(`[esdb+mongo] inline projections contract skipped: no ESDB_CONNECTION_STRING/MONGO_URL and no container runtime (${why})\n`);
  describe.skip('answering from the write (EventStoreDB + MongoDB)', () => {
    it('runs the inline projections contract', () => undefined);
  });
} else {
  const containers: StartedTestContainer[] = [];
  let esdbUrl = esdb.kind === 'env' ? esdb.url : '';
  let mongoUrl = mongo.kind === 'env' ? mongo.url : '';

  beforeAll(async () => {
    if (esdb.kind === 'container') {
      const started = await startEsdb();
      esdbUrl = started.url;
      containers.push(started.container);
    }
    if (mongo.kind === 'container') {
      const started = await startMongoReplicaSet();
      mongoUrl = started.url;
      containers.push(started.container);
    }
  }, 240_000);

  afterAll(async () => {
    for (const container of containers) await container.stop();
  });

  inlineProjectionsContract('EventStoreDB + MongoDB', async () => {
    const dbName = `inline_test_${randomBytes(4).toString('hex')}`;
    const events = new EsdbEventStore(esdbUrl);
    const reads = await MongoReadStore.connect(mongoUrl, dbName);
    return {
      events,
      reads,
      cleanup: async () => {
        await events.close();
        await reads.close();
        const client = await MongoClient.connect(mongoUrl);
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
}
