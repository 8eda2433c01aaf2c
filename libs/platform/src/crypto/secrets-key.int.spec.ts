// Where the secrets key comes from, on a real file system: generated once into DATA_DIR, reused,
// readable by its owner only, overridden by SECRETS_KEY, and a damaged file stops the start.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ConfigError, loadConfig } from '../config';
import { SecretBox } from './secret-box';
import { loadSecretsKey, SECRETS_KEY_FILE } from './secrets-key';

describe('loadSecretsKey', () => {
  let root: string;
  let dataDir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cc-secrets-'));
    // Not created yet: the loader makes DATA_DIR (and its parents) itself.
    dataDir = join(root, 'nested', 'data');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const keyFile = (): string => join(dataDir, SECRETS_KEY_FILE);

  it('generates 32 random bytes into DATA_DIR/secrets.key (hex), readable by its owner only', () => {
    const key = loadSecretsKey(loadConfig({ DATA_DIR: dataDir }));
    expect(key).toHaveLength(32);
    expect(readFileSync(keyFile(), 'utf8').trim()).toBe(key.toString('hex'));
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
  });

  it('reuses the file: the second load (a restart, the CLI) gets the same key', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = loadSecretsKey(config);
    const second = loadSecretsKey(config);
    expect(second.equals(first)).toBe(true);
    const sealed = new SecretBox(first).seal('whsec_x', 'ctx');
    expect(new SecretBox(second).open(sealed, 'ctx')).toBe('whsec_x');
  });

  it('gives two data directories two different keys', () => {
    const a = loadSecretsKey(loadConfig({ DATA_DIR: join(root, 'a') }));
    const b = loadSecretsKey(loadConfig({ DATA_DIR: join(root, 'b') }));
    expect(a.equals(b)).toBe(false);
  });

  it('uses SECRETS_KEY when set, and then writes no file', () => {
    const key = randomBytes(32);
    for (const value of [key.toString('hex'), key.toString('base64'), key.toString('base64url')]) {
      expect(loadSecretsKey(loadConfig({ DATA_DIR: dataDir, SECRETS_KEY: value })).equals(key)).toBe(true);
    }
    expect(() => statSync(keyFile())).toThrow(/ENOENT/);
  });

  it('lets SECRETS_KEY win over an existing key file', () => {
    const fileKey = loadSecretsKey(loadConfig({ DATA_DIR: dataDir }));
    const envKey = randomBytes(32);
    const loaded = loadSecretsKey(loadConfig({ DATA_DIR: dataDir, SECRETS_KEY: envKey.toString('hex') }));
    expect(loaded.equals(envKey)).toBe(true);
    expect(loaded.equals(fileKey)).toBe(false);
  });

  it('reads a key file written by hand (base64, surrounding whitespace)', () => {
    const key = randomBytes(32);
    loadSecretsKey(loadConfig({ DATA_DIR: dataDir })); // creates the directory
    writeFileSync(keyFile(), `  ${key.toString('base64')}\n\n`);
    expect(loadSecretsKey(loadConfig({ DATA_DIR: dataDir })).equals(key)).toBe(true);
  });

  it.each([
    ['garbage', 'not a key\n'],
    ['a short key', `${randomBytes(16).toString('hex')}\n`],
  ])('stops with a ConfigError naming the file when it holds %s, and never overwrites it', (_label, contents) => {
    loadSecretsKey(loadConfig({ DATA_DIR: dataDir }));
    writeFileSync(keyFile(), contents);
    const load = (): Buffer => loadSecretsKey(loadConfig({ DATA_DIR: dataDir }));
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(keyFile());
    expect(readFileSync(keyFile(), 'utf8')).toBe(contents);
  });

  it('stops with a ConfigError naming the file when it stays empty', () => {
    loadSecretsKey(loadConfig({ DATA_DIR: dataDir }));
    writeFileSync(keyFile(), '');
    expect(() => loadSecretsKey(loadConfig({ DATA_DIR: dataDir }))).toThrow(new RegExp(`${keyFile()} is empty`));
  });

  it('refuses a hand-built esdb config without SECRETS_KEY (the schema already does)', () => {
    const config = { ...loadConfig({ DATA_DIR: dataDir }), EVENT_STORE: 'esdb' as const };
    expect(() => loadSecretsKey(config)).toThrow(/SECRETS_KEY: required when EVENT_STORE=esdb/);
    expect(() => statSync(keyFile())).toThrow(/ENOENT/);
  });

  it("loses a creation race gracefully: the file another process made wins, and is never overwritten", () => {
    const winner = randomBytes(32).toString('hex');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFile(), `${winner}\n`, { flag: 'wx', mode: 0o600 });
    expect(loadSecretsKey(loadConfig({ DATA_DIR: dataDir })).toString('hex')).toBe(winner);
    expect(readFileSync(keyFile(), 'utf8')).toBe(`${winner}\n`);
  });

  it('waits for a racing creator that has made the file but not written it yet', async () => {
    const winner = randomBytes(32).toString('hex');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(keyFile(), '', { flag: 'wx', mode: 0o600 });
    // Another process writes the key 150 ms later, while this one is already reading.
    const writer = spawn(process.execPath, ['-e', `setTimeout(() => require('node:fs').writeFileSync(process.argv[1], process.argv[2]), 150)`, keyFile(), winner]);
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise((resolve) => writer.once('spawn', resolve));
    expect(loadSecretsKey(loadConfig({ DATA_DIR: dataDir })).toString('hex')).toBe(winner);
    await exited;
  });
});
