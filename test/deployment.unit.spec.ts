// The production compose file cannot run on a machine without a container engine, so this checks
// what can be checked: its shape, and that every service's environment is a valid configuration.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

import { configSchema, loadConfig, workerDuties, workerProcessConfig } from '@app/platform';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

const root = join(__dirname, '..');
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const knownVariables = Object.keys(configSchema.in.shape);

describe('docker-compose.yml', () => {
  it('runs EventStoreDB, MongoDB, the API and a worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'eventstore', 'mongo', 'worker']);
    expect(compose.services.mongo.image).toMatch(/^mongo:/);
    expect(compose.services.mongo.command).toEqual(expect.arrayContaining(['--replSet']));
    expect(compose.services.eventstore.healthcheck).toBeDefined();
    expect(compose.services.mongo.healthcheck).toBeDefined();
  });

  it.each(['api', 'worker'])('gives the %s a valid production configuration', (name) => {
    const service = compose.services[name];
    const env = service.environment ?? {};
    for (const variable of Object.keys(env)) expect(knownVariables).toContain(variable);
    // Compose refuses to start without SECRETS_KEY (`${SECRETS_KEY:?…}`); a real key stands in for it here.
    expect(env.SECRETS_KEY).toMatch(/^\$\{SECRETS_KEY:\?/);
    const config = loadConfig({ ...env, SECRETS_KEY: 'ab'.repeat(32) });
    expect(config.EVENT_STORE).toBe('esdb');
    expect(config.READ_STORE).toBe('mongo');
    expect(service.depends_on).toEqual({ eventstore: { condition: 'service_healthy' }, mongo: { condition: 'service_healthy' } });
  });

  it('runs every worker duty in the worker service and none in the API, whatever WORKER_MODE defaults to', () => {
    const configOf = (name: string) => loadConfig({ ...compose.services[name].environment, SECRETS_KEY: 'ab'.repeat(32) });
    const all = { primaryLane: true, eventualLane: true, background: true };
    expect(workerDuties(configOf('api'))).toEqual({ primaryLane: false, eventualLane: false, background: false });
    expect(workerDuties(workerProcessConfig(configOf('worker')))).toEqual(all);
    for (const mode of ['inline', 'process', 'background']) {
      expect(workerDuties(workerProcessConfig(loadConfig({ ...compose.services.worker.environment, WORKER_MODE: mode, SECRETS_KEY: 'ab'.repeat(32) })))).toEqual(all);
    }
  });

  it('starts entry points that the build produces', () => {
    const workerEntry = compose.services.worker.command?.[1] ?? '';
    expect(workerEntry).toBe('dist/apps/worker/src/main.js');
    for (const source of ['apps/worker/src/main.ts', 'apps/api/src/main.ts', 'apps/cli/src/main.ts']) {
      expect(existsSync(join(root, source))).toBe(true);
    }
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toContain('dist/apps/api/src/main.js');
  });
});
