// The service's public address across processes: the server's recorded listen URL in DATA_DIR
// (0600, its pid beside it), ignored once that process is gone, removed only by its writer.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { forgetListenUrl, LISTEN_URL_FILE, listenUrlOf, publicBaseUrl, recordedListenUrl, recordListenUrl } from './public-url';

describe('the public base URL', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cc-public-url-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const config = (extra: { PUBLIC_BASE_URL?: string; PORT?: number } = {}) => ({ DATA_DIR: dir, PORT: 3000, ...extra });

  it('names a wildcard or loopback host localhost, another host as itself', () => {
    expect(listenUrlOf('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(listenUrlOf('::', 41234)).toBe('http://localhost:41234');
    expect(listenUrlOf('localhost', 80)).toBe('http://localhost:80');
    expect(listenUrlOf('127.0.0.1', 5000)).toBe('http://127.0.0.1:5000');
    expect(listenUrlOf('::1', 5000)).toBe('http://[::1]:5000');
    expect(listenUrlOf('192.0.2.7', 8080)).toBe('http://192.0.2.7:8080');
  });

  it('is PUBLIC_BASE_URL when set, else the running server\'s recorded URL, else http://localhost:PORT', () => {
    expect(publicBaseUrl(config({ PORT: 4100 }))).toBe('http://localhost:4100');
    recordListenUrl(dir, 'http://127.0.0.1:45678');
    expect(publicBaseUrl(config({ PORT: 4100 }))).toBe('http://127.0.0.1:45678');
    expect(publicBaseUrl(config({ PUBLIC_BASE_URL: 'https://api.example.com' }))).toBe('https://api.example.com');
  });

  it('records the URL with its pid, 0600, and removes it only when this process wrote it', () => {
    recordListenUrl(dir, 'http://localhost:3001');
    const path = join(dir, LISTEN_URL_FILE);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ url: 'http://localhost:3001', pid: process.pid });
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    // Another server on the same DATA_DIR wrote it since: not ours to remove.
    writeFileSync(path, JSON.stringify({ url: 'http://localhost:3002', pid: process.ppid }));
    forgetListenUrl(dir);
    expect(existsSync(path)).toBe(true);
    recordListenUrl(dir, 'http://localhost:3001');
    forgetListenUrl(dir);
    expect(existsSync(path)).toBe(false);
    forgetListenUrl(dir); // nothing there: fine
  });

  it('ignores a URL left by a process that is gone (a server killed with -9), and a damaged file', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, LISTEN_URL_FILE), JSON.stringify({ url: 'http://localhost:39999', pid: Number(gone.stdout) }));
    expect(recordedListenUrl(dir)).toBeNull();
    expect(publicBaseUrl(config())).toBe('http://localhost:3000');
    for (const text of ['{', '{"url": "javascript:alert(1)", "pid": 1}', `{"url": "http://x:1", "pid": "${process.pid}"}`, '{"url": "http://x/y", "pid": 1}']) {
      writeFileSync(join(dir, LISTEN_URL_FILE), text);
      expect(recordedListenUrl(dir)).toBeNull();
    }
  });
});
