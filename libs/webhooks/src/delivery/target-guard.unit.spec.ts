// Unit tests for the webhook SSRF guard: address classification, URL rules, creation-time DNS check and the
// connection-time lookup (both callback forms, DNS rebinding).
import type * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { checkWebhookTarget, checkWebhookUrl, guardedLookup, isPublicAddress, type TargetPolicy } from './target-guard';

const strict: TargetPolicy = { allowHttp: false, allowPrivate: false };
const permissive: TargetPolicy = { allowHttp: true, allowPrivate: true };

type Answer = dns.LookupAddress[] | NodeJS.ErrnoException;

/** A dns.lookup stand-in that always answers in the `all: true` form (what guardedLookup asks for). */
function fakeResolver(...answers: Answer[]): typeof dns.lookup & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string, _options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(hostname);
    queueMicrotask(() => (answer instanceof Error ? callback(answer, []) : callback(null, answer)));
  };
  return Object.assign(resolve as unknown as typeof dns.lookup, { calls });
}

function v4(address: string): dns.LookupAddress {
  return { address, family: 4 };
}

function notFound(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
}

type LookupOutcome = { err: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number };

function callLookup(lookup: LookupFunction, hostname: string, options: dns.LookupOptions): Promise<LookupOutcome> {
  return new Promise((resolve) => lookup(hostname, options, (err, address, family) => resolve({ err, address, family })));
}

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '192.0.0.8',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2002:7f00:1::1',
    '2001::1',
    '64:ff9b::a00:1',
    '::7f00:1',
    '127.1',
    'nonsense',
    '',
  ])('%j is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%j is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('checkWebhookUrl', () => {
  it('accepts an https url with a public host name and returns the parsed URL', () => {
    const check = checkWebhookUrl('https://hooks.example.com/in?x=1', strict);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.url.href).toBe('https://hooks.example.com/in?x=1');
  });

  it('accepts a public IP literal', () => {
    expect(checkWebhookUrl('https://93.184.216.34/hook', strict).ok).toBe(true);
    expect(checkWebhookUrl('https://[2606:4700:4700::1111]/hook', strict).ok).toBe(true);
  });

  it('refuses http unless allowHttp', () => {
    expect(checkWebhookUrl('http://hooks.example.com/', strict)).toEqual({
      ok: false,
      reason: 'scheme',
      message: 'url must use https (set WEBHOOK_ALLOW_HTTP=true for local development)',
    });
    expect(checkWebhookUrl('http://hooks.example.com/', { allowHttp: true, allowPrivate: false }).ok).toBe(true);
  });

  it.each(['ftp://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://hooks.example.com/'])('refuses the scheme of %s', (url) => {
    expect(checkWebhookUrl(url, permissive)).toMatchObject({ ok: false, reason: 'scheme' });
  });

  it.each(['https://user:secret@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:secret@hooks.example.com/'])(
    'refuses credentials in %s',
    (url) => {
      expect(checkWebhookUrl(url, permissive)).toMatchObject({ ok: false, reason: 'credentials' });
    },
  );

  it.each([
    'https://localhost/',
    'https://LOCALHOST./',
    'https://api.localhost/',
    'https://printer.local/',
    'https://metadata.google.internal/',
    'https://router.home.arpa/',
  ])('refuses the local name in %s unless allowPrivate', (url) => {
    const check = checkWebhookUrl(url, strict);
    expect(check).toMatchObject({ ok: false, reason: 'private_address' });
    if (!check.ok) expect(check.message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    expect(checkWebhookUrl(url, { allowHttp: false, allowPrivate: true }).ok).toBe(true);
  });

  it.each([
    ['https://10.0.0.5/hook', '10.0.0.5'],
    ['https://127.0.0.1:8443/', '127.0.0.1'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://[::1]/', '::1'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
  ])('refuses the private literal %s unless allowPrivate', (url, shown) => {
    expect(checkWebhookUrl(url, strict)).toEqual({
      ok: false,
      reason: 'private_address',
      message: `url resolves to a private, loopback, link-local or metadata address (${shown}); set WEBHOOK_ALLOW_PRIVATE_TARGETS=true for local development`,
    });
    expect(checkWebhookUrl(url, { allowHttp: false, allowPrivate: true }).ok).toBe(true);
  });

  it.each(['', 'not a url', 'hooks.example.com/path', '/relative', 'https://', 'https://exa mple.com/', 'https://[::1/'])('refuses the garbage %j', (url) => {
    expect(checkWebhookUrl(url, permissive)).toMatchObject({ ok: false, reason: 'invalid_url' });
  });

  it('refuses urls longer than 2048 characters', () => {
    const base = 'https://hooks.example.com/';
    expect(checkWebhookUrl(base + 'a'.repeat(2048 - base.length), strict).ok).toBe(true);
    expect(checkWebhookUrl(base + 'a'.repeat(2049 - base.length), strict)).toEqual({
      ok: false,
      reason: 'invalid_url',
      message: 'url must be at most 2048 characters',
    });
  });
});

describe('checkWebhookTarget', () => {
  const lookupReturning = (answer: Answer) => {
    const hosts: string[] = [];
    const lookup = async (host: string) => {
      hosts.push(host);
      if (answer instanceof Error) throw answer;
      return answer;
    };
    return Object.assign(lookup, { hosts });
  };

  it('accepts a host whose addresses are all public', async () => {
    const lookup = lookupReturning([v4('93.184.216.34'), { address: '2606:4700:4700::1111', family: 6 }]);
    const check = await checkWebhookTarget('https://hooks.example.com/in', strict, lookup);
    expect(check.ok).toBe(true);
    expect(lookup.hosts).toEqual(['hooks.example.com']);
  });

  it('refuses a host with one private address among several', async () => {
    const lookup = lookupReturning([v4('93.184.216.34'), v4('10.0.0.5'), v4('8.8.8.8')]);
    expect(await checkWebhookTarget('https://hooks.example.com/in', strict, lookup)).toEqual({
      ok: false,
      reason: 'private_address',
      message:
        'url resolves to a private, loopback, link-local or metadata address (10.0.0.5); set WEBHOOK_ALLOW_PRIVATE_TARGETS=true for local development',
    });
  });

  it('accepts a host that does not resolve (the send-time check decides)', async () => {
    expect((await checkWebhookTarget('https://nowhere.example.com/', strict, lookupReturning(notFound('nowhere.example.com')))).ok).toBe(true);
    const noNetwork = Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
    expect((await checkWebhookTarget('https://nowhere.example.com/', strict, lookupReturning(noNetwork))).ok).toBe(true);
  });

  it('returns the syntax refusal without looking anything up', async () => {
    const lookup = lookupReturning([v4('93.184.216.34')]);
    expect(await checkWebhookTarget('http://hooks.example.com/', strict, lookup)).toMatchObject({ ok: false, reason: 'scheme' });
    expect(await checkWebhookTarget('https://10.0.0.5/', strict, lookup)).toMatchObject({ ok: false, reason: 'private_address' });
    expect(lookup.hosts).toEqual([]);
  });

  it('skips DNS when private targets are allowed', async () => {
    const lookup = lookupReturning([v4('127.0.0.1')]);
    expect((await checkWebhookTarget('https://hooks.example.com/', permissive, lookup)).ok).toBe(true);
    expect(lookup.hosts).toEqual([]);
  });
});

describe('guardedLookup', () => {
  it('answers callback(err, address, family) when options.all is not set', async () => {
    const lookup = guardedLookup(strict, fakeResolver([v4('93.184.216.34'), v4('8.8.8.8')]));
    expect(await callLookup(lookup, 'hooks.example.com', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('answers callback(err, addresses[]) when options.all is true', async () => {
    const addresses = [v4('93.184.216.34'), { address: '2606:4700:4700::1111', family: 6 }];
    const lookup = guardedLookup(strict, fakeResolver(addresses));
    const outcome = await callLookup(lookup, 'hooks.example.com', { all: true });
    expect(outcome.err).toBeNull();
    expect(outcome.address).toEqual(addresses);
  });

  it.each([{}, { all: true }])('fails with EWEBHOOK_PRIVATE_ADDRESS when any address is private (options %j)', async (options) => {
    const lookup = guardedLookup(strict, fakeResolver([v4('93.184.216.34'), v4('169.254.169.254')]));
    const { err } = await callLookup(lookup, 'hooks.example.com', options);
    expect(err).toMatchObject({ code: 'EWEBHOOK_PRIVATE_ADDRESS', message: 'private address refused (169.254.169.254)' });
  });

  it('lets private addresses through when allowPrivate', async () => {
    const lookup = guardedLookup(permissive, fakeResolver([v4('127.0.0.1')]));
    expect(await callLookup(lookup, 'localhost', {})).toEqual({ err: null, address: '127.0.0.1', family: 4 });
  });

  it('passes resolver errors through', async () => {
    const lookup = guardedLookup(strict, fakeResolver(notFound('nowhere.example.com')));
    const { err } = await callLookup(lookup, 'nowhere.example.com', {});
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('refuses the second connection when DNS rebinds to a private address', async () => {
    const resolver = fakeResolver([v4('93.184.216.34')], [v4('127.0.0.1')]);
    const lookup = guardedLookup(strict, resolver);
    expect(await callLookup(lookup, 'rebind.example.com', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    const second = await callLookup(lookup, 'rebind.example.com', {});
    expect(second.err).toMatchObject({ code: 'EWEBHOOK_PRIVATE_ADDRESS', message: 'private address refused (127.0.0.1)' });
    expect(resolver.calls).toEqual(['rebind.example.com', 'rebind.example.com']);
  });
});
