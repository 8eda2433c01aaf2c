// Shared by the idempotency e2e suites: the request they repeat, posting it with an Idempotency-Key,
// listing what was created, and the checks on replayed and refused answers.
import { http, type HttpResult } from './http';

export interface ErrorBody {
  code: string;
  message: string;
  details?: { issues?: Array<{ path: string; message: string }> };
}
export interface Created {
  id: string;
  matchCount: number;
}

export const PATH = '/api/v1/buyer-requests';
export const charizard = { cardName: 'Charizard', setName: 'Base', condition: 'Near Mint', maxPrice: 450.5 };

export const postTo = <T = Created>(url: string, key: string, body: unknown, idempotencyKey?: string) =>
  http<T>(url, 'POST', PATH, { key, body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });

export async function listIdsAt(url: string, key: string): Promise<string[]> {
  const res = await http<{ data: Array<{ id: string }> }>(url, 'GET', `${PATH}?limit=100`, { key });
  expect(res.status).toBe(200);
  return res.body.data.map((d) => d.id);
}

export const replayed = (res: HttpResult): boolean => res.headers.get('idempotent-replayed') === 'true';

export function expectErrorShape(res: HttpResult<ErrorBody>, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(['code', 'details', 'message']).toEqual(expect.arrayContaining(Object.keys(res.body)));
}
