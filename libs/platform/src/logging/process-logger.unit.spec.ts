import { loggableUrl } from './process-logger';

describe('loggableUrl', () => {
  it('hides the unsubscribe token of a buyer email, and leaves other URLs as they are', () => {
    expect(loggableUrl('/email/unsubscribe/u1.ws_1.buyer_x.abc')).toBe('/email/unsubscribe/[redacted]');
    expect(loggableUrl('/email/unsubscribe/u1.ws_1.buyer_x.abc?x=1')).toBe('/email/unsubscribe/[redacted]?x=1');
    expect(loggableUrl('/api/v1/buyer-requests/br_1?limit=2')).toBe('/api/v1/buyer-requests/br_1?limit=2');
  });
});
