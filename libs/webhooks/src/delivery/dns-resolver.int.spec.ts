// The webhook resolver against a real (tiny) DNS server on 127.0.0.1: answers, "no such name", a
// server that drops queries (bounded by the budget, where getaddrinfo would hold a pool thread for
// its own 5 s), the family filter, literals and localhost; then through the sender, a delivery to a
// name the server answers with a local address.
import * as dgram from 'node:dgram';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { addressLookup, lookupFunction } from './dns-resolver';
import { WebhookSender } from './http-sender';

type Zone = Record<string, { A?: string[]; AAAA?: string[] } | 'drop'>;

interface FakeDns {
  server: string;
  queries: string[];
  close(): Promise<void>;
}

/** Answers A (1) and AAAA (28) questions from `zone`; NXDOMAIN for unknown names; silence for 'drop'. */
async function startDns(zone: Zone): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (query, peer) => {
    const labels: string[] = [];
    let offset = 12;
    while (query[offset] !== 0) {
      labels.push(query.subarray(offset + 1, offset + 1 + query[offset]).toString('ascii'));
      offset += query[offset] + 1;
    }
    const questionEnd = offset + 5;
    const type = query.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    queries.push(`${name}/${type === 1 ? 'A' : type === 28 ? 'AAAA' : type}`);
    const entry = zone[name];
    if (entry === 'drop') return;
    const records = entry ? ((type === 1 ? entry.A : type === 28 ? entry.AAAA : undefined) ?? []) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(entry ? 0x8180 : 0x8183, 2); // response, recursion available; rcode 3 = NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    const answers = records.map((address) => {
      const rdata = type === 1 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the question's name
      rr.writeUInt16BE(type, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return { server: `127.0.0.1:${port}`, queries, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  groups.forEach((g, i) => bytes.writeUInt16BE(parseInt(g, 16), i * 2));
  return bytes;
}

describe('addressLookup (c-ares, bounded)', () => {
  let dns: FakeDns;

  beforeAll(async () => {
    dns = await startDns({
      'hooks.example.test': { A: ['93.184.216.34'], AAAA: ['2606:4700::1111'] },
      'v4only.example.test': { A: ['8.8.8.8'] },
      'local.example.test': { A: ['127.0.0.1'] },
      'silent.example.test': 'drop',
    });
  });

  afterAll(() => dns.close());

  it('answers every A and AAAA address, IPv4 first', async () => {
    const lookup = addressLookup({ timeoutMs: 500, tries: 1 }, [dns.server]);
    expect(await lookup('hooks.example.test')).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
    expect(await lookup('v4only.example.test')).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('asks only for the family requested', async () => {
    const lookup = addressLookup({ timeoutMs: 500, tries: 1 }, [dns.server]);
    dns.queries.length = 0;
    expect(await lookup('hooks.example.test', 6)).toEqual([{ address: '2606:4700::1111', family: 6 }]);
    expect(dns.queries).toEqual(['hooks.example.test/AAAA']);
  });

  it('fails with ENOTFOUND for a name that does not exist', async () => {
    const lookup = addressLookup({ timeoutMs: 500, tries: 1 }, [dns.server]);
    await expect(lookup('nowhere.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND', hostname: 'nowhere.example.test' });
  });

  it('gives up on a server that does not answer after its tries, without holding the thread pool', async () => {
    // Two tries of 500 ms (c-ares doubles the second): 1.5 s in which the lookups stay pending.
    const lookup = addressLookup({ timeoutMs: 500, tries: 2 }, [dns.server]);
    dns.queries.length = 0;
    const order: string[] = [];
    // Eight at once: getaddrinfo would have held all four pool threads; a file read goes on meanwhile,
    // done before any of them gives up (told by the order things end in, not by a clock).
    const pending = Array.from({ length: 8 }, () =>
      lookup('silent.example.test').then(
        () => order.push('answered'),
        (error: NodeJS.ErrnoException) => order.push(error.code ?? 'failed'),
      ),
    );
    await import('node:fs/promises').then((fs) => fs.readFile(__filename));
    order.push('file read');
    await Promise.all(pending);
    expect(order).toEqual(['file read', ...Array(8).fill('ETIMEOUT')]);
    // The budget is its tries: each lookup asked A and AAAA twice each, and no more.
    expect(dns.queries.filter((q) => q.startsWith('silent.example.test/')).sort()).toEqual([...Array(16).fill('silent.example.test/A'), ...Array(16).fill('silent.example.test/AAAA')]);
  });

  it('does not ask DNS for IP literals nor localhost names', async () => {
    const lookup = addressLookup({ timeoutMs: 500, tries: 1 }, [dns.server]);
    dns.queries.length = 0;
    expect(await lookup('10.1.2.3')).toEqual([{ address: '10.1.2.3', family: 4 }]);
    expect(await lookup('::1')).toEqual([{ address: '::1', family: 6 }]);
    expect(await lookup('localhost', 4)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await lookup('api.localhost.')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(dns.queries).toEqual([]);
  });

  it('lets the sender reach a name through it, and refuses the name when its address is private', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sender = new WebhookSender({ resolve: lookupFunction(addressLookup({ timeoutMs: 500, tries: 1 }, [dns.server])) });
    try {
      const request = { url: `http://local.example.test:${port}/hook`, body: '{}', headers: {}, timeoutMs: 2000 };
      const allowed = await sender.send({ ...request, policy: { allowHttp: true, allowPrivate: true } });
      expect(allowed).toMatchObject({ ok: true, status: 200, responseBody: 'ok' });
      const refused = await sender.send({ ...request, policy: { allowHttp: true, allowPrivate: false } });
      expect(refused).toMatchObject({ ok: false, status: null });
      expect(refused.error).toContain('127.0.0.1');
      const silent = await sender.send({ ...request, url: `http://silent.example.test:${port}/hook`, policy: { allowHttp: true, allowPrivate: true } });
      expect(silent.error).toContain('ETIMEOUT');
    } finally {
      sender.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
