// The scan link's pure parts: the referring page's origin (never its path or query, only http(s)),
// and the deduper that counts a visitor's scans of a seller once per 30 minutes, bounded in memory
// and keyed by an HMAC (no IP kept).
import { createHmac } from 'node:crypto';

import { referrerOrigin, ScanDeduper } from './scan.handlers';

describe('referrerOrigin', () => {
  it.each([
    ['https://shop.example.com/cards/123?utm_source=mail&token=secret#top', 'https://shop.example.com'],
    ['https://shop.example.com', 'https://shop.example.com'],
    ['https://shop.example.com:8443/a/b', 'https://shop.example.com:8443'],
    ['HTTPS://Shop.Example.COM:443/x', 'https://shop.example.com'],
    ['https://user:password@shop.example.com/private', 'https://shop.example.com'],
    ['http://blog.example.org/post?id=9', 'http://blog.example.org'],
    ['http://localhost:3000/x', 'http://localhost:3000'],
  ])('keeps only the origin of %s', (referer, origin) => {
    expect(referrerOrigin(referer)).toBe(origin);
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['ftp://files.example.com/x'],
    ['file:///etc/passwd'],
    ['blob:https://shop.example.com/0b5b8e3c'],
    ['garbage'],
    ['//shop.example.com/no-scheme'],
    ['/relative/path'],
    ['https://'],
    [''],
    [undefined],
  ])('is null for %p', (referer) => {
    expect(referrerOrigin(referer)).toBeNull();
  });
});

describe('ScanDeduper', () => {
  const MIN = 60_000;
  const key = Buffer.alloc(32, 9);
  const t0 = Date.parse('2026-11-24T12:00:00.000Z');

  it('counts a visitor once per seller within 30 minutes, and again from 30 minutes on', () => {
    const deduper = new ScanDeduper(key);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0)).toBe(true);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 1)).toBe(false);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 29 * MIN)).toBe(false);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 30 * MIN - 1)).toBe(false);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 30 * MIN)).toBe(true);
    // The window restarts from the scan that counted.
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 45 * MIN)).toBe(false);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 60 * MIN)).toBe(true);
  });

  it('does not extend the window with the scans it does not count', () => {
    const deduper = new ScanDeduper(key);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0)).toBe(true);
    for (let m = 5; m < 30; m += 5) expect(deduper.admit('203.0.113.7', 'ws_1', t0 + m * MIN)).toBe(false);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0 + 30 * MIN)).toBe(true);
  });

  it('counts another seller, or another visitor, separately', () => {
    const deduper = new ScanDeduper(key);
    expect(deduper.admit('203.0.113.7', 'ws_1', t0)).toBe(true);
    expect(deduper.admit('203.0.113.7', 'ws_2', t0 + 1)).toBe(true);
    expect(deduper.admit('203.0.113.8', 'ws_1', t0 + 2)).toBe(true);
    expect(deduper.admit('2001:db8::1', 'ws_1', t0 + 3)).toBe(true);
    expect(deduper.admit('203.0.113.7', 'ws_2', t0 + 4)).toBe(false);
    expect(deduper.admit('203.0.113.8', 'ws_1', t0 + 5)).toBe(false);
    expect(deduper.admit('2001:db8::1', 'ws_1', t0 + 6)).toBe(false);
  });

  it('keeps HMACs of (IP, seller) under its key, never an IP or a seller id', () => {
    const deduper = new ScanDeduper(key);
    deduper.admit('203.0.113.7', 'ws_1', t0);
    deduper.admit('2001:db8::1', 'ws_2', t0 + 1);
    const seen = (deduper as any).seen as Map<string, number>;
    expect(seen).toBeInstanceOf(Map);
    expect([...seen.entries()]).toEqual([
      [createHmac('sha256', key).update('203.0.113.7|ws_1').digest('base64url'), t0],
      [createHmac('sha256', key).update('2001:db8::1|ws_2').digest('base64url'), t0 + 1],
    ]);
    const stored = JSON.stringify([...seen.entries()]);
    for (const plain of ['203.0.113.7', '203.0.113', '2001:db8', 'ws_1', 'ws_2']) expect(stored).not.toContain(plain);
    for (const id of seen.keys()) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another key, other ids: the ids cannot be recomputed without the key.
    const other = new ScanDeduper(Buffer.alloc(32, 1));
    other.admit('203.0.113.7', 'ws_1', t0);
    expect([...((other as any).seen as Map<string, number>).keys()]).not.toEqual([[...seen.keys()][0]]);
  });

  it('stays bounded at 100,000 visitors, forgetting the oldest first, and still works', () => {
    const deduper = new ScanDeduper(key);
    const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    let counted = 0;
    for (let i = 0; i < 100_001; i++) if (deduper.admit(ip(i), 'ws_1', t0 + i)) counted++;
    expect(counted).toBe(100_001);
    const seen = (deduper as any).seen as Map<string, number>;
    expect(seen.size).toBe(100_000);
    const at = t0 + 100_001;
    // The newest and a kept one are still remembered…
    expect(deduper.admit(ip(100_000), 'ws_1', at)).toBe(false);
    expect(deduper.admit(ip(1), 'ws_1', at)).toBe(false);
    // …the oldest was forgotten: it counts again (and the next oldest makes room).
    expect(deduper.admit(ip(0), 'ws_1', at)).toBe(true);
    expect(seen.size).toBe(100_000);
    expect(deduper.admit(ip(0), 'ws_1', at + 1)).toBe(false);
    expect(deduper.admit(ip(1), 'ws_1', at + 1)).toBe(true);
    // A new visitor still counts once.
    expect(deduper.admit('198.51.100.1', 'ws_9', at + 2)).toBe(true);
    expect(deduper.admit('198.51.100.1', 'ws_9', at + 3)).toBe(false);
    expect(seen.size).toBe(100_000);
  });
});
