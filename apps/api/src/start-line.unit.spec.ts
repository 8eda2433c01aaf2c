import { listenRefusal, shownDataDir, startLine, urlHost } from './start-line';

describe("npm start's lines", () => {
  it('says where the API listens, with a URL a browser here can open, and where its data is', () => {
    expect(startLine({ HOST: '0.0.0.0', DATA_DIR: '/srv/app/data' }, 3000, '/srv/app')).toBe(
      'Collectibles Commerce API listening on http://localhost:3000 (data in ./data)',
    );
    expect(startLine({ HOST: '127.0.0.1', DATA_DIR: '/tmp/cc-1' }, 41234, '/srv/app')).toBe(
      'Collectibles Commerce API listening on http://127.0.0.1:41234 (data in /tmp/cc-1)',
    );
    // What the tests and scripts that start it wait for.
    expect(/listening on (http:\/\/\S+)/.exec(startLine({ HOST: '127.0.0.1', DATA_DIR: '/d' }, 5, '/'))?.[1]).toBe('http://127.0.0.1:5');
  });

  it('shows wildcard and IPv6 hosts as a browser takes them', () => {
    expect([urlHost('0.0.0.0'), urlHost('::'), urlHost('::1'), urlHost('10.0.0.5'), urlHost('api.local')]).toEqual([
      'localhost',
      'localhost',
      '[::1]',
      '10.0.0.5',
      'api.local',
    ]);
  });

  it('shows DATA_DIR relative to the working folder when it is below it', () => {
    expect(shownDataDir('/srv/app/data', '/srv/app')).toBe('./data');
    expect(shownDataDir('/srv/app', '/srv/app')).toBe('.');
    expect(shownDataDir('/srv/other', '/srv/app')).toBe('/srv/other');
  });

  it('names a refused port or host in one line that says what to change', () => {
    const config = { PORT: 3000, HOST: '0.0.0.0' };
    const error = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
    expect(listenRefusal(error('EADDRINUSE'), config)).toBe('port 3000 is already in use — is another server running? Set PORT to use another port.');
    expect(listenRefusal(error('EACCES'), { ...config, PORT: 80 })).toMatch(/^port 80 may not be used .* set PORT to 1024 or above\.$/);
    expect(listenRefusal(error('EADDRNOTAVAIL'), { ...config, HOST: '10.9.9.9' })).toMatch(/^HOST=10\.9\.9\.9 is not an address of this machine/);
    expect(listenRefusal(error('ENOTFOUND'), { ...config, HOST: 'nowhere.invalid' })).toMatch(/^HOST=nowhere\.invalid does not resolve/);
    expect(listenRefusal(new Error('other'), config)).toBeNull();
  });
});
