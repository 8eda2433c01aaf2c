// Where the key that seals secrets at rest comes from. SECRETS_KEY wins; embedded (EVENT_STORE=
// sqlite), a key generated once into DATA_DIR/secrets.key lets `npm start` work with no setup. With
// EventStoreDB the config schema requires SECRETS_KEY: several machines must share one key, and the
// secrets must not depend on one machine's disk.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type AppConfig, ConfigError } from '../config';
import { makePrivateDirectory } from '../data-dir';
import { decodeSecretKey, SECRET_KEY_FORMAT } from './secret-box';

export const SECRETS_KEY_FILE = 'secrets.key';

/** The 32-byte key for the SecretBox. Throws ConfigError when none can be had. */
export function loadSecretsKey(config: AppConfig): Buffer {
  if (config.SECRETS_KEY !== undefined) {
    const key = decodeSecretKey(config.SECRETS_KEY);
    // The schema has already checked it; this guards configs built by hand.
    if (!key) throw new ConfigError(`Invalid configuration — SECRETS_KEY: must be ${SECRET_KEY_FORMAT}`);
    return key;
  }
  if (config.EVENT_STORE !== 'sqlite') {
    throw new ConfigError('Invalid configuration — SECRETS_KEY: required when EVENT_STORE=esdb');
  }
  return readOrCreateKeyFile(join(config.DATA_DIR, SECRETS_KEY_FILE), config.DATA_DIR);
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
