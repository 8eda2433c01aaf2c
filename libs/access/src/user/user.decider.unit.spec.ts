import { deciderSpec } from '@app/testing/support/decider-spec';

import { MAX_SESSIONS, userDecider } from './user.decider';
import type { UserEvent } from './user.events';

const spec = deciderSpec(userDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const at = (ms: number) => later(ms).toISOString();

const created: UserEvent = { type: 'user.created', data: { userId: 'usr_1', workspaceId: 'ws_1', emailSealed: 'sb1.x', role: 'owner', createdAt: now.toISOString() } };
const password: UserEvent = { type: 'user.password_set', data: { userId: 'usr_1', passwordHash: 'scrypt$h', setAt: now.toISOString() } };
const link = (hash: string, expiresInMs: number): UserEvent => ({ type: 'user.sign_in_link_issued', data: { userId: 'usr_1', linkHash: hash, expiresAt: at(expiresInMs), issuedAt: now.toISOString() } });
const signedIn = (sessionHash: string, method: 'password' | 'link' = 'password', linkHash: string | null = null, whenMs = 0): UserEvent => ({
  type: 'user.signed_in',
  data: { userId: 'usr_1', sessionHash, method, linkHash, expiresAt: at(whenMs + 3_600_000), signedInAt: at(whenMs) },
});

describe('user decider', () => {
  it('creates the owner with the sealed email, once', () => {
    spec.given([]).when({ type: 'CreateUser', userId: 'usr_1', workspaceId: 'ws_1', emailSealed: 'sb1.x', now }).then([created]);
    spec.given([created]).when({ type: 'CreateUser', userId: 'usr_1', workspaceId: 'ws_1', emailSealed: 'sb1.x', now }).thenThrows('CONFLICT');
  });

  it('a missing user can do nothing else', () => {
    spec.given([]).when({ type: 'SetPassword', userId: 'usr_1', passwordHash: 'h', keepSessionHash: null, now }).thenThrows('NOT_FOUND');
  });

  it('signs in with a password only once one is set', () => {
    const cmd = { type: 'SignIn' as const, userId: 'usr_1', sessionHash: 's1', method: 'password' as const, linkHash: null, expiresAt: later(3_600_000), now };
    spec.given([created]).when(cmd).thenThrows('VALIDATION_FAILED', 'no password');
    spec.given([created, password]).when(cmd).then([signedIn('s1')]);
  });

  it('a sign-in link works once, and not after it expires', () => {
    const cmd = (when: Date) => ({ type: 'SignIn' as const, userId: 'usr_1', sessionHash: 's1', method: 'link' as const, linkHash: 'l1', expiresAt: new Date(when.getTime() + 3_600_000), now: when });
    spec.given([created, link('l1', 60_000)]).when(cmd(now)).then([signedIn('s1', 'link', 'l1')]);
    spec.given([created, link('l1', 60_000), signedIn('s0', 'link', 'l1')]).when(cmd(now)).thenThrows('VALIDATION_FAILED', 'not valid');
    spec.given([created, link('l1', 60_000)]).when(cmd(later(60_000))).thenThrows('VALIDATION_FAILED', 'not valid');
    spec.given([created, link('l2', 60_000)]).when(cmd(now)).thenThrows('VALIDATION_FAILED', 'not valid');
  });

  describe('setting a password', () => {
    const setPassword = (keepSessionHash: string | null = null, when = now) => ({ type: 'SetPassword' as const, userId: 'usr_1', passwordHash: 'scrypt$new', keepSessionHash, now: when });
    const passwordSet = (when = now): UserEvent => ({ type: 'user.password_set', data: { userId: 'usr_1', passwordHash: 'scrypt$new', setAt: when.toISOString() } });
    const signedOut = (sessionHash: string, when = now): UserEvent => ({ type: 'user.signed_out', data: { userId: 'usr_1', sessionHash, signedOutAt: when.toISOString() } });

    it('adds a first password to a user made without one, ending no session (the link session goes on)', () => {
      spec.given([created, link('l1', 60_000), signedIn('s1', 'link', 'l1')]).when(setPassword()).then([passwordSet()]);
    });

    it('replacing one ends every live session (from the CLI: keeps none)', () => {
      spec.given([created, password, signedIn('s1'), signedIn('s2')]).when(setPassword()).then([passwordSet(), signedOut('s1'), signedOut('s2')]);
    });

    it('replacing one from a portal session keeps that session, ends the others', () => {
      spec.given([created, password, signedIn('s1'), signedIn('s2')]).when(setPassword('s2')).then([passwordSet(), signedOut('s1')]);
    });

    it('records nothing for sessions already ended or expired', () => {
      const ended: UserEvent = { type: 'user.signed_out', data: { userId: 'usr_1', sessionHash: 's1', signedOutAt: now.toISOString() } };
      spec.given([created, password, signedIn('s1'), ended]).when(setPassword()).then([passwordSet()]);
      // signedIn() sessions last an hour: two hours on, nothing is live.
      spec.given([created, password, signedIn('s1')]).when(setPassword(null, later(7_200_000))).then([passwordSet(later(7_200_000))]);
    });

    it('the new password is what a sign-in checks from then on', () => {
      const state = [created, password, passwordSet()].reduce(userDecider.evolve, userDecider.initialState);
      expect(state).toMatchObject({ status: 'active', passwordHash: 'scrypt$new' });
    });
  });

  it('signing out ends that session; twice records nothing', () => {
    spec.given([created, password, signedIn('s1')]).when({ type: 'SignOut', userId: 'usr_1', sessionHash: 's1', now }).then([
      { type: 'user.signed_out', data: { userId: 'usr_1', sessionHash: 's1', signedOutAt: now.toISOString() } },
    ]);
    spec.given([created, password, signedIn('s1'), { type: 'user.signed_out', data: { userId: 'usr_1', sessionHash: 's1', signedOutAt: now.toISOString() } }])
      .when({ type: 'SignOut', userId: 'usr_1', sessionHash: 's1', now })
      .then([]);
  });

  it(`keeps at most ${MAX_SESSIONS} live sessions: the oldest ends first`, () => {
    const many = Array.from({ length: MAX_SESSIONS }, (_, i) => signedIn(`s${i}`, 'password', null, i));
    const events = userDecider.decide(
      { type: 'SignIn', userId: 'usr_1', sessionHash: 'new', method: 'password', linkHash: null, expiresAt: later(3_600_000), now: later(MAX_SESSIONS) },
      [created, password, ...many].reduce(userDecider.evolve, userDecider.initialState),
    );
    expect(events.map((e) => e.type)).toEqual(['user.signed_out', 'user.signed_in']);
    expect(events[0].data).toMatchObject({ sessionHash: 's0' });
  });
});
