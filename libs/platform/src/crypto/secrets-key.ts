// Where the key that seals secrets at rest comes from. SECRETS_KEY wins; embedded (EVENT_STORE=
// sqlite), a key generated once into DATA_DIR/secrets.key lets `npm start` work with no setup. With
// EventStoreDB the config schema requires SECRETS_KEY: several machines must share one key, and the
// secrets must not depend on one machine's disk.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type AppConfig, ConfigError, StartError } from '../config';
import { makePrivateDirectory } from '../data-dir';
import { decodeSecretKey, SECRET_KEY_FORMAT } from './secret-box';

export const SECRETS_KEY_FILE = 'secrets.key';

/** Which key the stored data is sealed with: a recorded key id, and the evidence of the data itself (SqliteKeyLedger). */
export interface SealingRecord {
  recordedKeyId(): string | undefined;
  record(keyId: string): void;
  findSealed(): { keyId: string; where: string } | undefined;
}

/**
 * The 32-byte key for the SecretBox. Throws ConfigError when none can be had. With the stored
 * data's record (`ledger`), the key never changes silently: a key other than the one the stored
 * data is sealed with, or a missing key file where sealed data exists, is a StartError; a key is
 * generated only for a DATA_DIR with nothing sealed.
 */
export function loadSecretsKey(config: AppConfig, ledger?: SealingRecord): Buffer {
  if (config.SECRETS_KEY !== undefined) {
    const key = decodeSecretKey(config.SECRETS_KEY);
    // The schema has already checked it; this guards configs built by hand.
    if (!key) throw new ConfigError(`Invalid configuration — SECRETS_KEY: must be ${SECRET_KEY_FORMAT}`);
    if (ledger) assertSealingKey(key, 'SECRETS_KEY', ledger);
    return key;
  }
  if (config.EVENT_STORE !== 'sqlite') {
    throw new ConfigError('Invalid configuration — SECRETS_KEY: required when EVENT_STORE=esdb');
  }
  const file = join(config.DATA_DIR, SECRETS_KEY_FILE);
  if (ledger && !existsSync(file)) refuseToGenerate(file, ledger);
  const key = readOrCreateKeyFile(file, config.DATA_DIR);
  if (ledger) assertSealingKey(key, file, ledger);
  return key;
}

/** The id every sealed value names its key by (SecretBox.keyId). */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** The key file is missing: generating one is only right where nothing is sealed yet. */
function refuseToGenerate(file: string, ledger: SealingRecord): void {
  const sealed = ledger.findSealed();
  if (sealed === undefined) return;
  throw new StartError(
    `The secrets key file ${file} is missing, but ${sealed.where} holds a value sealed with key ${sealed.keyId}: a new key would ` +
      `leave webhook secrets and sealed data unreadable, so none is generated. Restore ${file} from a backup, or set ` +
      'SECRETS_KEY to that key (where you kept a copy of it: 64 hex characters or base64).',
  );
}

/**
 * The key the stored data is sealed with must be this one. The recorded key id answers at once;
 * without it, or when it names another key, the data itself decides (the newest sealed value): a
 * key change where nothing is sealed is harmless, and recorded.
 */
function assertSealingKey(key: Buffer, source: string, ledger: SealingRecord): void {
  const keyId = keyIdOf(key);
  if (ledger.recordedKeyId() === keyId) return;
  const sealed = ledger.findSealed();
  if (sealed !== undefined && sealed.keyId !== keyId) {
    throw new StartError(
      `The secrets key from ${source} (key ${keyId}) is not the key the stored data is sealed with (${sealed.where} names key ` +
        `${sealed.keyId}): webhook secrets and sealed data would be unreadable. Use the original key (restore the file, or set SECRETS_KEY to it).`,
    );
  }
  ledger.record(keyId);
}

function readOrCreateKeyFile(file: string, dataDir: string): Buffer {
  makePrivateDirectory(dataDir);
  try {
    // 'wx' fails when the file exists: of two processes starting at once, one creates it and the
    // other reads the winner's key below. Mode 0600: only the service's user may read it.
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (!isAlreadyExists(error)) {
      throw new ConfigError(`Cannot create the secrets key file ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return readKeyFile(file);
}

function readKeyFile(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read the secrets key file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const key = decodeSecretKey(text.trim());
  if (!key) {
    // An empty file can be a racing creator that has not written yet: look once more, briefly.
    if (text.length === 0) return retryEmpty(file);
    throw new ConfigError(
      `The secrets key file ${file} does not hold a valid key (${SECRET_KEY_FORMAT}). ` +
        'Restore the original file (secrets sealed with it cannot be read without it), or set SECRETS_KEY',
    );
  }
  return key;
}

function retryEmpty(file: string): Buffer {
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    const text = readFileSync(file, 'utf8');
    if (text.length > 0) return readKeyFile(file);
  }
  throw new ConfigError(
    `The secrets key file ${file} is empty. Restore the original file (secrets sealed with it cannot be read without it), or set SECRETS_KEY`,
  );
}

/** By code, not `instanceof Error`: errors from node's own realm fail that check under jest. */
function isAlreadyExists(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST';
}
