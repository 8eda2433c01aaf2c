import { randomBytes } from 'node:crypto';

import { csrfTokenFor, hashPassword, hashToken, isEmail, newToken, NO_PASSWORD, normalizeEmail, sameText, tokenUser, userIdFor, verifyPassword } from './user.secrets';
import { cookieValue } from './portal-sessions';

describe('portal secrets', () => {
  const key = randomBytes(32);

  it('a user id is the same for the same workspace and email (any case), different otherwise, and reveals neither', () => {
    const id = userIdFor(key, 'ws_1', 'Owner@Example.com ');
    expect(id).toMatch(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(userIdFor(key, 'ws_1', 'owner@example.com')).toBe(id);
    expect(userIdFor(key, 'ws_2', 'owner@example.com')).not.toBe(id);
    expect(userIdFor(randomBytes(32), 'ws_1', 'owner@example.com')).not.toBe(id);
    expect(id).not.toMatch(/owner|example/i);
  });

  it('passwords: scrypt with a salt each, verified in constant time; the no-password hash matches nothing', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', a)).toBe(false);
    expect(await verifyPassword('', NO_PASSWORD)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });

  it('tokens name their user and kind; only their hash is kept', () => {
    const session = newToken('session', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(session).toMatch(/^pss_01ARZ3NDEKTSV4RRFFQ69G5FAV_[A-Za-z0-9_-]{43}$/);
    expect(tokenUser('session', session)).toBe('usr_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(tokenUser('link', session)).toBeUndefined();
    expect(tokenUser('session', `${session}x`)).toBeUndefined();
    expect(hashToken(session)).toMatch(/^[0-9a-f]{64}$/);
    expect(csrfTokenFor(key, session)).not.toBe(csrfTokenFor(key, newToken('session', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV')));
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('abc', 'abd')).toBe(false);
    expect(sameText('abc', 'abcd')).toBe(false);
  });

  it('emails are compared lower-cased and must look like one', () => {
    expect(normalizeEmail('  A@B.Co ')).toBe('a@b.co');
    for (const ok of ['a@b.co', 'first.last+tag@shop.example']) expect(isEmail(ok)).toBe(true);
    for (const bad of ['', 'a', 'a@b', 'a b@c.d', '@b.co', 'a@.co', `${'x'.repeat(250)}@b.co`]) expect(isEmail(bad)).toBe(false);
  });

  it('reads one cookie from a Cookie header', () => {
    expect(cookieValue('a=1; portal_session=pss_x; b=2', 'portal_session')).toBe('pss_x');
    expect(cookieValue('xportal_session=1', 'portal_session')).toBeUndefined();
    expect(cookieValue(undefined, 'portal_session')).toBeUndefined();
  });
});
