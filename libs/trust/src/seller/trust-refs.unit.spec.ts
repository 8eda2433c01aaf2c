// A trade's public ref is published in signed credentials: it must never change for a given key.
import { createHmac } from 'node:crypto';

import { SecretBox } from '@app/platform';

import { TrustRefs } from './seller-trust.issuer';

describe('TrustRefs', () => {
  it('is HMAC-SHA256 of the trade id under the derived key, hex, 24 characters — the same as ever', () => {
    const box = new SecretBox(Buffer.alloc(32, 9));
    const refs = new TrustRefs(box);
    const expected = (id: string) => `t_${createHmac('sha256', box.deriveKey('trust-trade-ref')).update(id).digest('hex').slice(0, 24)}`;
    for (const id of ['trd_01', 'trd_01M8936341JZSQ1S5RVW63731R', '']) expect(refs.refOf(id)).toBe(expected(id));
    expect(new TrustRefs().refOf('trd_01')).toBe(`t_${createHmac('sha256', Buffer.alloc(32)).update('trd_01').digest('hex').slice(0, 24)}`);
  });
});
