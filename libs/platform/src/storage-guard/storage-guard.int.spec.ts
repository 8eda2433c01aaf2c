// The start's guards, on real SQLite files: the log against the read side's checkpoints, the key
// against what the stored data is sealed with, and the quick check of each database.
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { closeTempStores, openTempStores, type TempStores } from '@app/testing/support/sqlite-stores';

import { loadConfig, StartError } from '../config';
import { SecretBox } from '../crypto/secret-box';
import { loadSecretsKey, SECRETS_KEY_FILE } from '../crypto/secrets-key';
import type { SqliteEventStore } from '../event-store/sqlite-event-store';
import { PROCESS_MANAGER_CHECKPOINTS } from '../process-managers/process-manager-runner';
import { CHECKPOINTS } from '../projections/projection-runner';
import type { SqliteReadStore } from '../read-store/sqlite-read-store';
import { damageOf } from '../sqlite/storage-fault';
import { checkDatabases } from './database-check';
import { SqliteKeyLedger } from './key-ledger';
import { logShortfall } from './log-guard';

const meta = { workspaceId: 'ws_1', schemaVersion: 1 };

describe('the storage guard', () => {
  let stores: TempStores;
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;

  beforeEach(() => {
    stores = openTempStores('cc-guard-');
    ({ dir, events, reads } = stores);
  });

  afterEach(() => closeTempStores(stores));

  const append = (stream: string, data: unknown = {}) => events.append(stream, [{ type: 't', data, metadata: meta }], { expectedRevision: 'any' });

  describe('logShortfall', () => {
    it('says nothing for a new DATA_DIR, or a log at or past every checkpoint', async () => {
      expect(await logShortfall(events, 'events.db', [{ label: 'read.db', store: reads }])).toBeUndefined();
      await append('a');
      await append('b');
      await reads.collection(CHECKPOINTS).put({ id: 'things', position: 2 });
      await reads.collection(PROCESS_MANAGER_CHECKPOINTS).put({ id: 'pm', position: 1 });
      expect(await logShortfall(events, 'events.db', [{ label: 'read.db', store: reads }])).toBeUndefined();
    });

    it('names the log, the read store, the furthest projection or process manager and both positions', async () => {
      await append('a');
      await reads.collection(CHECKPOINTS).put({ id: 'things', position: 1 });
      await reads.collection(PROCESS_MANAGER_CHECKPOINTS).put({ id: 'reverse-matching', position: 7 });
      const problem = await logShortfall(events, '/data/events.db', [{ label: 'read.db', store: reads }]);
      expect(problem).toMatch(/^The event log \/data\/events\.db ends at position 1, but read\.db has applied it up to position 7 \(reverse-matching\)/);
      expect(problem).toContain('npm run cli -- projections reset');
      expect(problem).not.toContain('\n');
    });
  });

  describe('the secrets key against the sealed data', () => {
    const config = () => loadConfig({ DATA_DIR: dir });
    const ledger = () => new SqliteKeyLedger(events, [reads]);

    it('generates and records a key for a DATA_DIR with nothing sealed; the same key then starts without a search', async () => {
      await append('plain', { name: 'nothing sealed' });
      const key = loadSecretsKey(config(), ledger());
      expect(ledger().recordedKeyId()).toBe(new SecretBox(key).keyId);
      expect(loadSecretsKey(config(), ledger()).equals(key)).toBe(true);
    });

    it('refuses to generate a key where the log holds a sealed value, naming the file and the event', async () => {
      const box = new SecretBox(Buffer.alloc(32, 7));
      await append('webhook-1', { secret: box.seal('whsec_x') });
      const error = (() => {
        try {
          loadSecretsKey(config(), ledger());
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(StartError);
      expect((error as Error).message).toContain(`${join(dir, SECRETS_KEY_FILE)} is missing, but events.db (the event at position 1) holds a value sealed with key ${box.keyId}`);
      expect(() => statSync(join(dir, SECRETS_KEY_FILE))).toThrow(/ENOENT/);
    });

    it('refuses another key than the one the data is sealed with, and takes the original', async () => {
      const original = Buffer.alloc(32, 7);
      await append('webhook-1', { secret: new SecretBox(original).seal('whsec_x') });
      writeFileSync(join(dir, SECRETS_KEY_FILE), `${Buffer.alloc(32, 9).toString('hex')}\n`, { mode: 0o600 });
      expect(() => loadSecretsKey(config(), ledger())).toThrow(/is not the key the stored data is sealed with/);
      expect(() => loadSecretsKey(loadConfig({ DATA_DIR: dir, SECRETS_KEY: Buffer.alloc(32, 9).toString('hex') }), ledger())).toThrow(
        /from SECRETS_KEY .* is not the key/,
      );
      const key = loadSecretsKey(loadConfig({ DATA_DIR: dir, SECRETS_KEY: original.toString('hex') }), ledger());
      expect(key.equals(original)).toBe(true);
      expect(ledger().recordedKeyId()).toBe(new SecretBox(original).keyId);
    });

    it('finds a sealed Idempotency-Key answer in the read store when the log holds none', async () => {
      const box = new SecretBox(Buffer.alloc(32, 5));
      await reads.collection({ name: 'idempotency_keys', indexes: [] }).put({ id: 'ws_1:k', response: { sealedBody: box.seal('{}') } });
      expect(ledger().findSealed()).toEqual({ keyId: box.keyId, where: 'read.db (a stored Idempotency-Key answer)' });
    });
  });

  describe('checkDatabases', () => {
    it('passes sound files, leaves out absent and empty ones, and names a damaged one with what SQLite said', async () => {
      for (let i = 0; i < 50; i += 1) await append(`s-${i}`, { pad: 'x'.repeat(1000) });
      await reads.collection({ name: 'things', indexes: [] }).put({ id: 'a' });
      writeFileSync(join(dir, 'empty.db'), '');
      const paths = ['events.db', 'read.db', 'empty.db', 'absent.db'].map((f) => join(dir, f));
      const budget = { budgetMs: 60000, onLateDamage: () => undefined };
      expect(await checkDatabases(paths, budget)).toEqual([
        { file: 'events.db', state: 'ok' },
        { file: 'read.db', state: 'ok' },
      ]);

      events.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const file = join(dir, 'events.db');
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(statSync(file).size / 4096 / 2) * 4096);
      closeSync(fd);
      const [outcome] = await checkDatabases([file], budget);
      expect(outcome).toMatchObject({ file: 'events.db', state: 'damaged', problem: expect.any(String) });
      expect(outcome.state === 'damaged' && outcome.problem).not.toMatch(/\n/);
      // A file this small is checked on the calling thread; a worker thread says the same.
      expect(await checkDatabases([file], { ...budget, inlineMaxBytes: 0 })).toEqual([outcome]);
      expect(await checkDatabases(paths.slice(1, 2), { ...budget, inlineMaxBytes: 0 })).toEqual([{ file: 'read.db', state: 'ok' }]);
    });

    it('calls a file that is not a database damaged; a check past the budget goes on and records what it finds', async () => {
      const garbage = join(dir, 'garbage.db');
      writeFileSync(garbage, Buffer.alloc(8192, 0x41));
      const late: string[] = [];
      // inlineMaxBytes 0: on a worker thread, as a file larger than INLINE_CHECK_MAX_BYTES is.
      const outcomes = await checkDatabases([garbage], { budgetMs: 0, onLateDamage: (file) => late.push(file), inlineMaxBytes: 0 });
      expect(outcomes).toEqual([{ file: 'garbage.db', state: 'running' }]);
      for (let i = 0; i < 200 && late.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(late).toEqual(['garbage.db']);
      expect(damageOf(garbage)).toMatch(/not a database/);
    });
  });
});
