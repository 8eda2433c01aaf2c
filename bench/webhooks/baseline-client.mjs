// The webhooks bench's baseline client, a worker thread (started by scenarios.mjs): N signed POSTs.
import { Agent, request as httpRequest } from 'node:http';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

import { BASELINE_BODY_BYTES, EVENT_TYPE } from './config.mjs';
import { signatureHeaders } from './signing.mjs';
import { pct } from './stats.mjs';

// Baseline client: runs in a worker thread (its own event loop and core, as the app is its own
// process), POSTs `total` signed bodies with `concurrency` in flight over one keep-alive agent.
async function baselineClient({ url, secret, total, concurrency }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const pad = 'x'.repeat(2000);
  const makeBody = (i) => {
    const id = `evt_${i.toString(16).padStart(32, '0')}`;
    const envelope = {
      id,
      type: EVENT_TYPE,
      created_at: new Date().toISOString(),
      workspace_id: 'ws_01M82BHCWTBWZ1RBJ6H2Q4PEFH',
      data: {
        inventory_item_id: `inv_01M82BHDR77H0T8ZNCFB${String(i).padStart(6, '0')}`,
        card_name: 'Charizard',
        set_name: 'Base',
        condition: 'Near Mint',
        price: 10,
        currency: 'USD',
        quantity: 1,
        status: 'available',
        sku: 'BASE1-4-NM',
        notes: '',
      },
    };
    const bare = JSON.stringify(envelope).length;
    envelope.data.notes = pad.slice(0, Math.max(0, BASELINE_BODY_BYTES - bare));
    return { id, body: JSON.stringify(envelope) };
  };
  const post = (i) =>
    new Promise((res) => {
      const t0 = performance.now();
      const { id, body } = makeBody(i);
      const headers = {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'bench-baseline/1',
        ...signatureHeaders(body, id, secret, Math.floor(Date.now() / 1000)),
      };
      const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers }, (r) => {
        r.resume();
        r.on('end', () => res({ status: r.statusCode, ms: performance.now() - t0 }));
        r.on('error', (e) => res({ status: null, error: String(e), ms: performance.now() - t0 }));
      });
      req.on('error', (e) => res({ status: null, error: String(e), ms: performance.now() - t0 }));
      req.end(body);
    });
  const latencies = [];
  const statuses = {};
  let errors = 0;
  let next = 0;
  let bodyBytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        if (i === 0) bodyBytes = Buffer.byteLength(makeBody(0).body);
        const r = await post(i);
        latencies.push(r.ms);
        if (r.status === null) errors += 1;
        statuses[r.status ?? 'error'] = (statuses[r.status ?? 'error'] ?? 0) + 1;
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: total,
    wallSeconds: wallMs / 1000,
    requestsPerSecond: total / (wallMs / 1000),
    latencyMs: { p50: pct(latencies, 50), p99: pct(latencies, 99), max: latencies[latencies.length - 1] },
    statuses,
    errors,
    bodyBytes,
    // process.cpuUsage() in a worker is the whole process's: kept for reference only.
    processCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

if (!isMainThread) {
  baselineClient(workerData).then(
    (result) => parentPort.postMessage({ ok: true, result }),
    (error) => parentPort.postMessage({ ok: false, error: String(error?.stack ?? error) }),
  );
}
