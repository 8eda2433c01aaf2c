import { randomBytes } from 'node:crypto';

import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token';

const key = randomBytes(32);
const subject = { workspaceId: 'ws_01JABCDEFGHJKMNPQRSTVWXYZ0', buyerId: 'buyer_abcdefghijklmnopqrstuvwxyz' };

describe('the unsubscribe token', () => {
  it('verifies the token it made, naming the workspace and the buyer id only', () => {
    const token = unsubscribeToken(key, subject);
    expect(token).toMatch(/^u1\.ws_\w+\.buyer_[a-z2-7]{26}\.[A-Za-z0-9_-]{22}$/);
    expect(token.length).toBeLessThan(100);
    expect(verifyUnsubscribeToken(key, token)).toEqual(subject);
  });

  it('refuses a token signed with another key, for another buyer or workspace, or malformed', () => {
    const token = unsubscribeToken(key, subject);
    const mac = token.split('.')[3];
    expect(verifyUnsubscribeToken(randomBytes(32), token)).toBeNull();
    expect(verifyUnsubscribeToken(key, `u1.${subject.workspaceId}.buyer_zzzzzzzzzzzzzzzzzzzzzzzzzz.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `u1.ws_01JABCDEFGHJKMNPQRSTVWXYZ1.${subject.buyerId}.${mac}`)).toBeNull();
    const flipped = mac.slice(0, -2) + (mac.at(-2) === 'A' ? 'B' : 'A') + mac.at(-1);
    for (const bad of ['', 'u1', `u2.${subject.workspaceId}.${subject.buyerId}.${mac}`, `${token}.x`, token.slice(0, -1), `u1.${subject.workspaceId}.${subject.buyerId}.${flipped}`, 'x'.repeat(500)]) {
      expect(verifyUnsubscribeToken(key, bad)).toBeNull();
    }
  });
});
