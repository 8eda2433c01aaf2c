// The webhooks bench's receiver: one node:http server per origin; each path has a mode (200, 503
// until a time, or never answer), a secret to verify both signatures with, and its stats.
import { createServer } from 'node:http';

import { onCleanup } from '../lib/resources.mjs';

import { verifySpec, verifyStandard } from './signing.mjs';

// Every receiver's connections are closed at cleanup (exit, failure or signal).
const servers = new Set();
onCleanup(() => {
  for (const s of servers) s.closeAllConnections?.();
});

export class Receiver {
  constructor() {
    this.paths = new Map();
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.server.headersTimeout = 0;
    this.server.requestTimeout = 0;
    servers.add(this.server);
  }

  async start() {
    await new Promise((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = this.server.address().port;
    return this;
  }

  url(path) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** mode: 'ok' (200), 'hold' (503 + Retry-After until `holdUntil`, then 200), 'hang' (never answers). */
  route(path, { mode = 'ok', secret = null, holdUntil = null } = {}) {
    const stats = {
      mode,
      secret,
      holdUntil,
      requests: 0,
      ok: 0,
      held: 0,
      unverified: 0,
      badSpec: 0,
      badStandard: 0,
      idMismatch: 0,
      duplicates: 0,
      bodyBytes: 0,
      okIds: new Map(), // webhook-id → perf time of its first 2xx
      heldIds: new Set(),
      firstOk: [], // perf times of the first 2xx of each id, in arrival order
      lagsMs: [], // arrival (Date.now) − envelope created_at, first 2xx of each id
      arrivals: [], // perf times of every request (hang mode: attempts)
      open: 0,
      maxOpen: 0,
    };
    this.paths.set(path, stats);
    return stats;
  }

  handle(req, res) {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const wall = Date.now();
      const s = this.paths.get(req.url);
      if (!s) {
        res.writeHead(404).end('no such path');
        return;
      }
      const raw = Buffer.concat(chunks);
      s.requests += 1;
      s.bodyBytes += raw.length;
      s.arrivals.push(at);
      if (s.secret === null) s.unverified += 1;
      else {
        if (!verifySpec(req.headers['x-service-signature'], raw, s.secret)) s.badSpec += 1;
        if (!verifyStandard(req.headers, raw, s.secret)) s.badStandard += 1;
      }
      let envelope = null;
      try {
        envelope = JSON.parse(raw.toString('utf8'));
      } catch {
        /* counted as an id mismatch below */
      }
      const id = req.headers['webhook-id'];
      if (!envelope || envelope.id !== id) s.idMismatch += 1;
      if (s.mode === 'hang') {
        s.open += 1;
        s.maxOpen = Math.max(s.maxOpen, s.open);
        res.on('close', () => (s.open -= 1));
        return;
      }
      if (s.mode === 'hold' && s.holdUntil !== null && wall < s.holdUntil) {
        s.held += 1;
        s.heldIds.add(id);
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': new Date(s.holdUntil).toUTCString() }).end('later');
        return;
      }
      s.ok += 1;
      if (s.okIds.has(id)) s.duplicates += 1;
      else {
        s.okIds.set(id, at);
        s.firstOk.push(at);
        const created = Date.parse(envelope?.created_at ?? '');
        if (Number.isFinite(created)) s.lagsMs.push(wall - created);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(() => r()));
    servers.delete(this.server);
  }
}
