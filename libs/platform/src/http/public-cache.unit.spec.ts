import { PublicResponseCache } from './public-cache';

const PUBLIC = { 'cache-control': 'public, max-age=60', 'content-type': 'application/json', etag: '"v1"', 'x-request-id': 'req-1', ratelimit: '"burst";r=1;t=1', 'content-length': '2' };

describe('PublicResponseCache', () => {
  const cache = () => new PublicResponseCache({ ttlMs: 1000 });

  it('keeps a public 200 for min(max-age, ttl), without the headers of that one answer', () => {
    const c = cache();
    c.remember('/a', {}, 200, PUBLIC, '{}', 0);
    const hit = c.lookup('/a', {}, 999);
    expect(hit?.body?.toString()).toBe('{}');
    expect(hit?.etag).toBe('"v1"');
    expect(hit?.headers).toEqual({ 'cache-control': 'public, max-age=60', 'content-type': 'application/json', etag: '"v1"' });
    expect(c.lookup('/a', {}, 1000)).toBeNull();
    const short = cache();
    short.remember('/a', {}, 200, { ...PUBLIC, 'cache-control': 'public, max-age=0' }, '{}', 0);
    expect(short.lookup('/a', {}, 1)).toBeNull();
  });

  it('never keeps what is not a public 200 without cookies', () => {
    const c = cache();
    c.remember('/private', {}, 200, { ...PUBLIC, 'cache-control': 'private, max-age=60' }, '{}', 0);
    c.remember('/no-store', {}, 200, { ...PUBLIC, 'cache-control': 'public, no-store' }, '{}', 0);
    c.remember('/none', {}, 200, { 'content-type': 'application/json' }, '{}', 0);
    c.remember('/404', {}, 404, PUBLIC, '{}', 0);
    c.remember('/cookie', {}, 200, { ...PUBLIC, 'set-cookie': 'a=b' }, '{}', 0);
    c.remember('/stream', {}, 200, PUBLIC, { pipe() {} }, 0);
    for (const url of ['/private', '/no-store', '/none', '/404', '/cookie', '/stream']) expect(c.lookup(url, {}, 1)).toBeNull();
    const off = new PublicResponseCache({ ttlMs: 0 });
    off.remember('/a', {}, 200, PUBLIC, '{}', 0);
    expect(off.lookup('/a', {}, 1)).toBeNull();
  });

  it('keys copies by the request headers the answer varies on', () => {
    const c = cache();
    const varying = { ...PUBLIC, vary: 'Accept' };
    c.remember('/c', { accept: 'application/json' }, 200, varying, 'json', 0);
    c.remember('/c', { accept: 'application/vc+ld+json' }, 200, varying, 'vc', 0);
    expect(c.lookup('/c', { accept: 'application/json' }, 1)?.body?.toString()).toBe('json');
    expect(c.lookup('/c', { accept: 'application/vc+ld+json' }, 1)?.body?.toString()).toBe('vc');
    expect(c.lookup('/c', {}, 1)).toBeNull();
    c.remember('/star', {}, 200, { ...PUBLIC, vary: '*' }, 'x', 0);
    expect(c.lookup('/star', {}, 1)).toBeNull();
  });

  it('stays bounded: the oldest URL goes first', () => {
    const c = new PublicResponseCache({ ttlMs: 1000, maxUrls: 3 });
    for (const url of ['/1', '/2', '/3', '/4']) c.remember(url, {}, 200, PUBLIC, url, 0);
    expect(c.lookup('/1', {}, 1)).toBeNull();
    expect(c.lookup('/4', {}, 1)?.body?.toString()).toBe('/4');
  });
});

describe('PublicResponseCache and revalidations', () => {
  it('keeps a 304 for its etag only: it answers that If-None-Match, and nothing else', () => {
    const c = new PublicResponseCache({ ttlMs: 1000 });
    c.remember('/a', { 'if-none-match': '"v1"' }, 304, PUBLIC, '', 0);
    expect(c.lookup('/a', { 'if-none-match': '"v1"' }, 1)).toMatchObject({ body: null, etag: '"v1"' });
    expect(c.lookup('/a', {}, 1)).toBeNull();
    expect(c.lookup('/a', { 'if-none-match': '"v0"' }, 1)).toBeNull();
    // A full copy answers both, and a later 304 does not replace it.
    c.remember('/a', {}, 200, PUBLIC, '{}', 2);
    c.remember('/a', { 'if-none-match': '"v1"' }, 304, PUBLIC, '', 3);
    expect(c.lookup('/a', {}, 4)?.body?.toString()).toBe('{}');
  });
});

describe('PublicResponseCache.forget', () => {
  it('forgets a path with its query strings and sub-paths, nothing else', () => {
    const c = new PublicResponseCache({ ttlMs: 1000 });
    for (const url of ['/b/acme', '/b/acme?theme=dark', '/b/acme/inputs', '/b/acme-two', '/b/other']) c.remember(url, {}, 200, PUBLIC, url, 0);
    c.forget('/b/acme');
    expect(['/b/acme', '/b/acme?theme=dark', '/b/acme/inputs', '/b/acme-two', '/b/other'].map((u) => c.lookup(u, {}, 1) !== null)).toEqual([false, false, false, true, true]);
  });
});
