// Optimistic concurrency through the client: an answer's ETag is kept with it (etagOf), a write
// sends it back as If-Match when asked, and a 412 is a PreconditionFailedError naming the version
// the resource is at now.
import { CommerceClient } from '../client';
import { PreconditionFailedError } from '../core/errors';
import type { FetchLike } from '../core/transport';
import { etagOf } from './resource';

const trade = { id: 'trd_1', status: 'initiated' };

function fakeApi(answer: (init: RequestInit) => Response) {
  const sent: Headers[] = [];
  const fetch: FetchLike = async (_url, init) => {
    sent.push(new Headers(init.headers));
    return answer(init);
  };
  return { api: new CommerceClient({ apiKey: 'sk_test_1', baseUrl: 'https://api.example.test', fetch, maxRetries: 0 }), sent };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('ETag and If-Match in the client', () => {
  it('keeps the answer\'s ETag beside it (not a field: JSON and spreads leave it out), and sends it back as If-Match', async () => {
    const { api, sent } = fakeApi(() => json(trade, 200, { etag: 'W/"0"' }));
    const read = await api.secureTrades.retrieve('trd_1');
    expect(etagOf(read)).toBe('W/"0"');
    expect(JSON.parse(JSON.stringify(read))).toEqual(trade);
    await api.secureTrades.transition('trd_1', { to: 'paid' }, { ifMatch: etagOf(read) });
    expect(sent[1].get('if-match')).toBe('W/"0"');
    expect(sent[0].get('if-match')).toBeNull();
  });

  it('sends If-Match on every kind of write: PATCH, DELETE, PUT', async () => {
    const { api, sent } = fakeApi(() => json({ id: 'x' }, 200, { etag: 'W/"4"' }));
    const updated = await api.buyerRequests.update('br_1', { maxPrice: 500 }, { ifMatch: 'W/"3"' });
    expect(etagOf(updated)).toBe('W/"4"');
    await api.inventory.delete('inv_1', { ifMatch: 'W/"5"' });
    await api.widget.updateSettings({ allowedOrigins: [] }, { ifMatch: 'W/"6"' });
    expect(sent.map((h) => h.get('if-match'))).toEqual(['W/"3"', 'W/"5"', 'W/"6"']);
  });

  it('has no ETag for an answer without one', async () => {
    const { api } = fakeApi(() => json(trade));
    expect(etagOf(await api.secureTrades.retrieve('trd_1'))).toBeUndefined();
    expect(etagOf(null)).toBeUndefined();
  });

  it('throws PreconditionFailedError on 412, with the version the resource is at now', async () => {
    const { api } = fakeApi(() =>
      json({ code: 'PRECONDITION_FAILED', message: 'changed', details: { expectedETag: 'W/"0"', currentETag: 'W/"2"' } }, 412),
    );
    const error = await api.secureTrades.transition('trd_1', { to: 'paid' }, { ifMatch: 'W/"0"' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED', currentETag: 'W/"2"' });
  });
});
