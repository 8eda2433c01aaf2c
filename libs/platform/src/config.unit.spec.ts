import { randomBytes } from 'node:crypto';

import { ConfigError, loadConfig } from './config';
import { configSettings } from './config-docs';

describe('configuration', () => {
  it('defaults to the embedded stores under ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, EVENT_STORE: 'sqlite', READ_STORE: 'sqlite', SQLITE_SYNCHRONOUS: 'NORMAL', RUN_WORKERS: true });
    expect(config.DATA_DIR).toMatch(/\/data$/);
  });

  it('maps no SQLite file into memory by default (issue 20: mapped pages count in RSS), unless SQLITE_MMAP_MB asks', () => {
    expect(loadConfig({}).SQLITE_MMAP_MB).toBe(0);
    expect(loadConfig({}).SQLITE_CACHE_MB).toBe(64);
    expect(loadConfig({ SQLITE_MMAP_MB: '256' }).SQLITE_MMAP_MB).toBe(256);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
    [{ EVENT_STORE: 'esdb' }, 'ESDB_CONNECTION_STRING'],
    [{ EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' }, 'SECRETS_KEY'],
    [{ SECRETS_KEY: 'hunter2' }, 'SECRETS_KEY'],
    [{ READ_STORE: 'mongo' }, 'MONGO_URL'],
    [{ RUN_WORKERS: 'maybe' }, 'RUN_WORKERS'],
  ])('stops with a message naming the variable for %j', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });

  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8,192.168.1.1', '10.0.0.0/8,192.168.1.1'],
  ])('reads TRUST_PROXY=%s as %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses a TRUST_PROXY that is none of those', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow('TRUST_PROXY');
  });

  it('looks for due timers every 250 ms by default, and at most a minute apart', () => {
    expect(loadConfig({}).TIMER_POLL_MS).toBe(250);
    expect(loadConfig({ TIMER_POLL_MS: '1000' }).TIMER_POLL_MS).toBe(1000);
    expect(() => loadConfig({ TIMER_POLL_MS: '0' })).toThrow('TIMER_POLL_MS');
    expect(() => loadConfig({ TIMER_POLL_MS: '60001' })).toThrow('TIMER_POLL_MS');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000);
  });

  it('keeps idempotency keys 24 hours by default and refuses less (the API promises at least that)', () => {
    expect(loadConfig({})).toMatchObject({ IDEMPOTENCY_KEY_TTL_HOURS: 24, IDEMPOTENCY_WAIT_MS: 10000, IDEMPOTENCY_LEASE_MS: 60000 });
    expect(loadConfig({ IDEMPOTENCY_KEY_TTL_HOURS: '48', IDEMPOTENCY_WAIT_MS: '0' })).toMatchObject({ IDEMPOTENCY_KEY_TTL_HOURS: 48, IDEMPOTENCY_WAIT_MS: 0 });
    expect(() => loadConfig({ IDEMPOTENCY_KEY_TTL_HOURS: '23' })).toThrow('IDEMPOTENCY_KEY_TTL_HOURS');
    expect(() => loadConfig({ IDEMPOTENCY_LEASE_MS: '0' })).toThrow('IDEMPOTENCY_LEASE_MS');
  });

  it('limits 100 requests a minute and 20 a second by default, per workspace and per client IP', () => {
    expect(loadConfig({})).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 100,
      RATE_LIMIT_PER_SECOND: 20,
      RATE_LIMIT_PUBLIC_PER_MINUTE: 100,
      RATE_LIMIT_PUBLIC_PER_SECOND: 20,
    });
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '600' }).RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(() => loadConfig({ RATE_LIMIT_PER_SECOND: '0' })).toThrow('RATE_LIMIT_PER_SECOND');
    expect(() => loadConfig({ RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000001' })).toThrow('RATE_LIMIT_PUBLIC_PER_MINUTE');
  });

  describe('SECRETS_KEY', () => {
    const key = randomBytes(32);

    it('is optional with the embedded event store (a key file in DATA_DIR is used instead)', () => {
      expect(loadConfig({}).SECRETS_KEY).toBeUndefined();
    });

    it.each([
      ['64 hex characters', key.toString('hex')],
      ['base64', key.toString('base64')],
      ['base64url', key.toString('base64url')],
    ])('accepts %s', (_label, value) => {
      expect(loadConfig({ SECRETS_KEY: value }).SECRETS_KEY).toBe(value);
    });

    it.each([
      ['a passphrase', 'correct horse battery staple'],
      ['62 hex characters', key.toString('hex').slice(2)],
      ['base64 of 16 bytes', randomBytes(16).toString('base64')],
    ])('refuses %s with a message saying the format, never the value', (_label, value) => {
      let message = '';
      try {
        loadConfig({ SECRETS_KEY: value });
      } catch (error) {
        message = error instanceof ConfigError ? error.message : '';
      }
      expect(message).toContain('SECRETS_KEY: must be 64 hex characters, or base64/base64url of exactly 32 bytes');
      expect(message).not.toContain(value);
    });

    it('is required with EventStoreDB: secrets must not depend on one machine\'s disk', () => {
      const esdb = { EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: 'esdb://localhost:2113?tls=false' };
      expect(() => loadConfig(esdb)).toThrow(
        "SECRETS_KEY: required when EVENT_STORE=esdb (secrets must not depend on one machine's disk)",
      );
      expect(loadConfig({ ...esdb, SECRETS_KEY: key.toString('hex') }).EVENT_STORE).toBe('esdb');
    });
  });
});

describe('buyer email settings', () => {
  it('reads durations with units as milliseconds, and refuses a bad SMTP_URL naming it', () => {
    const c = loadConfig({ BUYER_EMAIL_WINDOW: '20s', BUYER_EMAIL_RETRY: '500ms', SMTP_URL: 'smtp://127.0.0.1:2525' });
    expect([c.BUYER_EMAIL_WINDOW, c.BUYER_EMAIL_RETRY, c.BUYER_EMAIL_LEASE, c.SMTP_URL]).toEqual([20_000, 500, 120_000, 'smtp://127.0.0.1:2525']);
    expect(loadConfig({}).BUYER_EMAIL_WINDOW).toBe(3_600_000);
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ BUYER_EMAIL_WINDOW: 'soon' })).toThrow(/BUYER_EMAIL_WINDOW/);
  });
});

describe('PUBLIC_BASE_URL', () => {
  it('takes an absolute http(s) origin, without its trailing slash; unset, it is undefined', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com' }).PUBLIC_BASE_URL).toBe('https://api.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://localhost:8080/' }).PUBLIC_BASE_URL).toBe('http://localhost:8080');
    expect(loadConfig({}).PUBLIC_BASE_URL).toBeUndefined();
  });

  it.each(['api.example.com', '/portal', 'ftp://api.example.com', 'https://api.example.com/shop', 'https://api.example.com/?x=1', 'https://api.example.com/#top', 'https://me:pw@api.example.com'])(
    'refuses %s, naming the variable and what it takes',
    (value) => {
      expect(() => loadConfig({ PUBLIC_BASE_URL: value })).toThrow(/PUBLIC_BASE_URL: must be an (absolute http\(s\) URL|origin only)/);
    },
  );

  it('is documented where the configuration table is generated from (config-docs.ts → docs/configuration.md)', () => {
    const row = configSettings().find((setting) => setting.name === 'PUBLIC_BASE_URL');
    expect(row?.meaning).toMatch(/absolute http\(s\) origin.*sign-in links.*listens on.*localhost:\$PORT/s);
    expect(row?.default).toMatch(/running server's own URL, else `http:\/\/localhost:\$PORT`/);
  });
});
