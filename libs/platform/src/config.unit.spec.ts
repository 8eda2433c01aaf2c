import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('defaults to the embedded stores under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, EVENT_STORE: 'sqlite', READ_STORE: 'sqlite', SQLITE_SYNCHRONOUS: 'NORMAL', RUN_WORKERS: true });
    expect(config.DATA_DIR).toMatch(/\/data$/);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
    [{ EVENT_STORE: 'esdb' }, 'ESDB_CONNECTION_STRING'],
    [{ READ_STORE: 'mongo' }, 'MONGO_URL'],
    [{ RUN_WORKERS: 'maybe' }, 'RUN_WORKERS'],
  ])('stops with a message naming the variable for %j', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000);
  });
});
