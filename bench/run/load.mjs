// Load for `npm run bench`: autocannon with exact 2xx latency percentiles, and the request options
// of a GET (one list page) or a POST (a fresh body per request) scenario.
import autocannon from 'autocannon';

import { settings } from './config.mjs';

/**
 * Runs autocannon; also keeps every 2xx response time (autocannon's histogram rounds to whole
 * milliseconds, too coarse for sub-millisecond medians) and attaches exact percentiles as
 * `result.preciseLatency`. `onResponse(statusCode, responseTimeMs)`, if given, sees every response.
 */
export function cannon(opts, { onResponse } = {}) {
  return new Promise((res, rej) => {
    const times = [];
    const instance = autocannon({ pipelining: settings.pipelining, timeout: 10, ...opts }, (err, result) => {
      if (err) return rej(err);
      times.sort((a, b) => a - b);
      const pct = (p) => (times.length ? times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] : NaN);
      result.preciseLatency = {
        samples: times.length,
        mean: times.reduce((a, b) => a + b, 0) / times.length,
        p50: pct(50),
        p90: pct(90),
        p99: pct(99),
        max: times[times.length - 1],
      };
      return res(result);
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
      if (onResponse) onResponse(statusCode, responseTime);
    });
  });
}

/** An autocannon request POSTing a fresh body (`nextBody()`) to the target's path on each send. */
export function postRequest(target, headers, nextBody) {
  return {
    method: 'POST',
    path: target.path,
    headers: { ...headers, 'content-type': 'application/json' },
    setupRequest: (req) => {
      req.body = nextBody();
      return req;
    },
  };
}

export function loadOptions(target, kind, nextBody) {
  const headers = { accept: 'application/json', ...target.headers };
  if (kind === 'post') return { url: target.url, requests: [postRequest(target, headers, nextBody)] };
  return { url: target.url, requests: [{ method: 'GET', path: `${target.path}?limit=${settings.listLimit}`, headers }] };
}
