// Name resolution for webhook targets, bounded in time and off libuv's thread pool.
//
// `dns.lookup` (getaddrinfo) runs on the 4-thread pool that file system and crypto calls share, and
// it cannot be timed out: a resolver that drops queries holds a thread for its 5 s time-out, and
// three tries hold it for 15 s. So a few deliveries to a name whose DNS does not answer would hold
// POST /webhooks (which looks the name up) for 5, 10, then 15 s, its look-up queued behind them. `dns.Resolver` (c-ares) runs on the event loop with a time-out of its own, so a slow
// name costs its own delivery, never another's. It asks DNS (A and AAAA) directly: no hosts file,
// which suits a service reaching public endpoints; `localhost` names are loopback (RFC 6761).
import type * as dns from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface ResolverBudget {
  /** Time-out of one query, in ms. */
  timeoutMs: number;
  /** Queries sent to each name server before giving up. */
  tries: number;
}

/** At send time: the exchange's own timer bounds it too. */
export const SEND_TIME_DNS: ResolverBudget = { timeoutMs: 2000, tries: 2 };
/** At creation: a host that does not answer quickly is accepted, and judged again at send time. */
export const CREATION_DNS: ResolverBudget = { timeoutMs: 1000, tries: 1 };

export type AddressLookup = (hostname: string, family?: 0 | 4 | 6) => Promise<dns.LookupAddress[]>;

const LOOPBACK: readonly dns.LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];
/** Answers that mean "no such name or no address of that family", as opposed to a failure to ask. */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/**
 * Every A and AAAA address of `hostname` (IPv4 first), or an error: ENOTFOUND when it has none,
 * ETIMEOUT (or the resolver's code) when DNS did not answer. `servers` replaces the system's name
 * servers (tests).
 */
export function addressLookup(budget: ResolverBudget, servers?: readonly string[]): AddressLookup {
  const resolver = new Resolver({ timeout: budget.timeoutMs, tries: budget.tries });
  if (servers) resolver.setServers([...servers]);
  return async (hostname, family = 0) => {
    const literal = isIP(hostname);
    if (literal !== 0) return [{ address: hostname, family: literal }];
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK.filter((a) => family === 0 || a.family === family);
    const queries = [family !== 6 ? resolver.resolve4(name) : null, family !== 4 ? resolver.resolve6(name) : null];
    const settled = await Promise.allSettled(queries.map((q) => q ?? Promise.resolve([])));
    const addresses: dns.LookupAddress[] = [];
    const failures: NodeJS.ErrnoException[] = [];
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') for (const address of result.value) addresses.push({ address, family: i === 0 ? 4 : 6 });
      else failures.push(result.reason as NodeJS.ErrnoException);
    });
    if (addresses.length > 0) return addresses;
    const failed = failures.find((f) => !NO_ADDRESS.has(f.code ?? ''));
    const code = failed?.code ?? 'ENOTFOUND';
    throw Object.assign(new Error(`queryA ${code} ${hostname}`), { code, hostname, syscall: 'queryA' });
  };
}

/**
 * The same resolution in the shape of `dns.lookup`, for agents and connect options. It always
 * answers in the `all: true` form, the one guardedLookup asks for.
 */
export function lookupFunction(lookup: AddressLookup): typeof dns.lookup {
  const fn = (hostname: string, options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void): void => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    lookup(hostname, family).then(
      (addresses) => callback(null, addresses),
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
  return fn as unknown as typeof dns.lookup;
}
