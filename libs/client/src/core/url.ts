// How the client makes a URL: the API's base path under the server's origin, path parameters
// encoded one segment each, and query values as Fastify's query parser reads them back.

/** Every route of the API is under this path; `request({ path: '/trades' })` calls `/api/v1/trades`. */
export const API_BASE_PATH = '/api/v1';

type QueryScalar = string | number | boolean | Date;
/** A query value: undefined and null are left out; an array repeats the key (`?a=1&a=2`). */
export type QueryValue = QueryScalar | null | undefined | readonly QueryScalar[];
export type Query = Readonly<Record<string, QueryValue>>;

/**
 * Encodes each interpolated value as one path segment: encodePath`/trades/${id}/ship`. An empty,
 * `.` or `..` value is refused: it would call another route than the one meant.
 */
export function encodePath(strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string {
  return strings.reduce((path, text, i) => (i === 0 ? text : path + segment(values[i - 1]) + text), '');
}

function segment(value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') throw new TypeError(`Not a path parameter: "${text}"`);
  return encodeURIComponent(text);
}

/**
 * `a=1&b=x&c=1&c=2`: undefined and null left out, numbers and booleans as text, dates as ISO 8601,
 * an array as its key repeated (Fastify's query parser reads that as an array).
 */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    const values: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const item of values) params.append(key, item instanceof Date ? item.toISOString() : String(item));
  }
  return params.toString();
}

/** `https://host/prefix` + `/api/v1`, without a trailing slash; a base ending in /api/v1 already is one. */
export function apiBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.search || url.hash) throw new TypeError(`baseUrl takes no query or fragment: ${baseUrl}`);
  const prefix = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${prefix.endsWith(API_BASE_PATH) ? prefix : prefix + API_BASE_PATH}`;
}
