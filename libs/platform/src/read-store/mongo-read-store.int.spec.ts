// Runs the ReadStore contract against MongoDB: MONGO_URL when set (it must be a replica set, for
// transactions), else a throwaway mongo:7 single-node replica set through testcontainers when a
// container runtime answers, else the suite is skipped — visibly, never passed.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { MongoClient } from 'mongodb';
import type { StartedTestContainer } from 'testcontainers';

import { readStoreContract } from '@app/testing/contracts/read-store.contract';

import { MongoReadStore } from './mongo-read-store';

// Runs in a child process because jest must know before describing whether the suite runs.
const PROBE = `
const target = new URL(process.argv[1]);
const fail = () => process.exit(1);
if (target.protocol === 'unix:') {
  require('node:http')
    .get({ socketPath: target.pathname, path: '/_ping', timeout: 2000 }, (res) => process.exit(res.statusCode === 200 ? 0 : 1))
    .on('error', fail).on('timeout', fail);
} else {
  const socket = require('node:net').connect(Number(target.port) || 2375, target.hostname);
  socket.setTimeout(2000, fail);
  socket.on('connect', () => process.exit(0)).on('error', fail);
}`;

function containerRuntime(): { answering: string | null; tried: string } {
  const sockets = [
    '/var/run/docker.sock',
    join(homedir(), '.docker/run/docker.sock'),
    ...(process.env.XDG_RUNTIME_DIR ? [join(process.env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
  ];
  const candidates = process.env.DOCKER_HOST
    ? [process.env.DOCKER_HOST]
    : sockets.filter((s) => existsSync(s)).map((s) => `unix://${s}`);
  const answering = candidates.find((c) => spawnSync(process.execPath, ['-e', PROBE, c], { timeout: 5000 }).status === 0);
  const tried = candidates.length > 0 ? `${candidates.join(', ')} did not answer` : `no DOCKER_HOST, no socket at ${sockets.join(', ')}`;
  return { answering: answering ?? null, tried };
}

async function startReplicaSet(): Promise<{ url: string; container: StartedTestContainer }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('mongo:7')
    .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  // The member's host only has to work from inside the container: clients connect directly.
  const initiate = await container.exec([
    'mongosh',
    '--quiet',
    '--eval',
    "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: '127.0.0.1:27017' }] }); " +
      'while (!db.hello().isWritablePrimary) sleep(100);',
  ]);
  if (initiate.exitCode !== 0) throw new Error(`rs.initiate failed: ${initiate.output}`);
  return { url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`, container };
}

const configuredUrl = process.env.MONGO_URL;
const runtime = configuredUrl ? null : containerRuntime();

if (!configuredUrl && !runtime?.answering) {
  // Written straight to stderr: jest drops console output of a file whose tests are all skipped.
  process.stderr.write(`[mongo] skipped: no MONGO_URL and no container runtime (${runtime?.tried})\n`);
  describe.skip('MongoReadStore', () => {
    it('runs the ReadStore contract', () => undefined);
  });
} else {
  describe('MongoReadStore', () => {
    let url = configuredUrl ?? '';
    let container: StartedTestContainer | undefined;

    beforeAll(async () => {
      if (configuredUrl) return;
      ({ url, container } = await startReplicaSet());
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
