// Runs the EventStore contract against EventStoreDB: the server in ESDB_CONNECTION_STRING, else a
// throwaway container when a container runtime answers, else the suite is skipped (said once).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { StartedTestContainer } from 'testcontainers';

import { eventStoreContract } from '@app/testing/contracts/event-store.contract';

import { EsdbEventStore } from './esdb-event-store';

const IMAGE = 'eventstore/eventstore:24.10';
const PROBE_TIMEOUT_MS = 3_000;

type Backend = { kind: 'env'; connectionString: string } | { kind: 'container' } | { kind: 'none'; reason: string };

/**
 * Jest must know synchronously whether to declare the tests, so the runtime is probed with a
 * short-lived child process (an HTTP `_ping` on the Docker socket) rather than asynchronously.
 */
function backend(): Backend {
  const connectionString = process.env.ESDB_CONNECTION_STRING;
  if (connectionString) return { kind: 'env', connectionString };
  const dockerHost = process.env.DOCKER_HOST;
  const candidates = dockerHost
    ? [dockerHost]
    : [
        '/var/run/docker.sock',
        join(process.env.XDG_RUNTIME_DIR ?? '/nonexistent', 'docker.sock'),
        join(process.env.XDG_RUNTIME_DIR ?? '/nonexistent', 'podman', 'podman.sock'),
        join(homedir(), '.docker', 'run', 'docker.sock'),
      ]
        .filter((path) => existsSync(path))
        .map((path) => `unix://${path}`);
  if (candidates.length === 0) return { kind: 'none', reason: 'no DOCKER_HOST and no docker socket found' };
  // TLS endpoints cannot be pinged without the client certificates: let testcontainers try.
  if (dockerHost && process.env.DOCKER_TLS_VERIFY) return { kind: 'container' };
  const failures = candidates.map((endpoint) => pingDocker(endpoint));
  if (failures.some((failure) => failure === undefined)) return { kind: 'container' };
  return { kind: 'none', reason: failures.join('; ') };
}

/** undefined when the endpoint answers `_ping`, else why not. */
function pingDocker(endpoint: string): string | undefined {
  const script = `
    const net = require('node:net');
    const url = new URL(process.argv[1]);
    const socket = url.protocol === 'unix:'
      ? net.connect({ path: url.pathname })
      : net.connect({ host: url.hostname, port: Number(url.port || 2375) });
    let reply = '';
    socket.on('connect', () => socket.write('GET /_ping HTTP/1.0\\r\\nHost: docker\\r\\n\\r\\n'));
    socket.on('data', (chunk) => { reply += chunk; });
    socket.on('end', () => process.exit(/^HTTP\\/1\\.[01] 200/.test(reply) ? 0 : 2));
    socket.on('error', () => process.exit(3));`;
  const result = spawnSync(process.execPath, ['-e', script, endpoint], { timeout: PROBE_TIMEOUT_MS });
  if (result.status === 0) return undefined;
  if (result.error || result.signal) return `${endpoint} did not answer within ${PROBE_TIMEOUT_MS} ms`;
  return `${endpoint} ${result.status === 2 ? 'answered _ping without a 200' : 'is not reachable'}`;
}

const chosen = backend();

if (chosen.kind === 'none') {
  // One line, not jest's multi-line console block.
  process.stdout.write(`[esdb] skipped: no ESDB_CONNECTION_STRING and no container runtime (${chosen.reason})\n`);
  describe.skip('EsdbEventStore (no EventStoreDB available)', () => {
    it('runs the EventStore contract', () => undefined);
  });
} else {
  let container: StartedTestContainer | undefined;
  let connectionString = chosen.kind === 'env' ? chosen.connectionString : '';

  beforeAll(async () => {
    if (chosen.kind !== 'container') return;
    const { GenericContainer, Wait } = await import('testcontainers');
    container = await new GenericContainer(IMAGE)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_MEM_DB: 'true',
        EVENTSTORE_CLUSTER_SIZE: '1',
        EVENTSTORE_RUN_PROJECTIONS: 'None',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((code) => code < 300))
      .withStartupTimeout(60_000)
      .start();
    connectionString = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
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
