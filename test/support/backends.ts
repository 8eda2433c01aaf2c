// The production backends for int specs: EventStoreDB and MongoDB from ESDB_CONNECTION_STRING /
// MONGO_URL when set, else throwaway containers when a container runtime answers, else none — and
// the spec skips, saying why in one line. Jest must know synchronously whether to declare the
// tests, so the runtime is probed with a short-lived child process (an HTTP `_ping`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { StartedTestContainer } from 'testcontainers';

const PROBE_TIMEOUT_MS = 3_000;
export const ESDB_IMAGE = 'eventstore/eventstore:24.10';
export const MONGO_IMAGE = 'mongo:7';

export type Backend = { kind: 'env'; url: string } | { kind: 'container' } | { kind: 'none'; reason: string };

/** Where EventStoreDB comes from for this run. */
export function esdbBackend(): Backend {
  const url = process.env.ESDB_CONNECTION_STRING;
  return url ? { kind: 'env', url } : containerBackend();
}

/** Where MongoDB comes from for this run (MONGO_URL must be a replica set: transactions). */
export function mongoBackend(): Backend {
  const url = process.env.MONGO_URL;
  return url ? { kind: 'env', url } : containerBackend();
}

/** A container runtime that answers, or why none does. */
export function containerBackend(): Backend {
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

/** A throwaway single-node EventStoreDB in memory; its connection string. */
export async function startEsdb(): Promise<{ url: string; container: StartedTestContainer }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(ESDB_IMAGE)
    .withEnvironment({ EVENTSTORE_INSECURE: 'true', EVENTSTORE_MEM_DB: 'true', EVENTSTORE_CLUSTER_SIZE: '1', EVENTSTORE_RUN_PROJECTIONS: 'None' })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((code) => code < 300))
    .withStartupTimeout(60_000)
    .start();
  return { url: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`, container };
}

/** A throwaway single-node MongoDB replica set (transactions need one); its URL. */
export async function startMongoReplicaSet(): Promise<{ url: string; container: StartedTestContainer }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(MONGO_IMAGE)
    .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  // The member's host only has to work from inside the container: clients connect directly.
  const initiate = await container.exec([
    'mongosh',
    '--quiet',
    '--eval',
    "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: '127.0.0.1:27017' }] }); " + 'while (!db.hello().isWritablePrimary) sleep(100);',
  ]);
  if (initiate.exitCode !== 0) throw new Error(`rs.initiate failed: ${initiate.output}`);
  return { url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`, container };
}
