// SSRF guard for webhook targets. Three layers, used at different moments:
//  - checkWebhookUrl: syntax, scheme, credentials and host-name rules (no DNS) — at creation and before every send;
//  - checkWebhookTarget: the same plus a DNS look-up at creation time, to give the API user an early, clear refusal;
//  - guardedLookup: the `lookup` used by every outbound connection, so the address checked is the address
//    connected to (this is what defeats DNS rebinding between the creation-time check and the send).
// Only addresses that ipaddr.js classifies as 'unicast' (globally routable) are public; everything else is refused
// unless the policy allows private targets (local development).
import type * as dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import * as ipaddr from 'ipaddr.js';

import { type AddressLookup, addressLookup, CREATION_DNS } from './dns-resolver';

export interface TargetPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export type UrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: 'invalid_url' | 'scheme' | 'credentials' | 'private_address'; message: string };

type Refusal = Extract<UrlCheck, { ok: false }>;

/** Error code carried by the connection error when guardedLookup refuses an address. */
export const PRIVATE_ADDRESS_ERROR_CODE = 'EWEBHOOK_PRIVATE_ADDRESS';

const MAX_URL_LENGTH = 2048;
const PRIVATE_HOST_NAMES = ['localhost'];
const PRIVATE_HOST_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];
const ALLOW_HTTP_HINT = 'set WEBHOOK_ALLOW_HTTP=true for local development';
const ALLOW_PRIVATE_HINT = 'set WEBHOOK_ALLOW_PRIVATE_TARGETS=true for local development';

// Ranges ipaddr.js may call 'unicast' that must never be reached: "this network" (RFC 791), IETF protocol
// assignments (RFC 6890) and the deprecated IPv4-compatible IPv6 addresses (RFC 4291, ::/96).
const EXTRA_REFUSED_RANGES: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [
  ipaddr.parseCIDR('0.0.0.0/8'),
  ipaddr.parseCIDR('192.0.0.0/24'),
  ipaddr.parseCIDR('::/96'),
];

/** True only for a syntactically valid IP address in globally routable unicast space; false for anything unparsable. */
export function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 0) return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip); // unwraps ::ffff:a.b.c.d to the IPv4 address it carries
  } catch {
    return false;
  }
  if (address.range() !== 'unicast') return false;
  return !EXTRA_REFUSED_RANGES.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits));
}

/** Syntax + scheme + host-name rules, no DNS. https only unless allowHttp; no user:password@; max 2048 chars; hostname required; 'localhost', '*.localhost', '*.local', '*.internal', '*.home.arpa' and IP literals that are not public are refused unless allowPrivate. */
export function checkWebhookUrl(raw: string, policy: TargetPolicy): UrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) return refuse('invalid_url', 'url is required');
  if (raw.length > MAX_URL_LENGTH) return refuse('invalid_url', `url must be at most ${MAX_URL_LENGTH} characters`);
  const url = parseUrl(raw);
  if (!url) return refuse('invalid_url', 'url is not a valid absolute URL');
  return checkScheme(url, policy) ?? checkCredentials(url) ?? checkHost(url, policy) ?? { ok: true, url };
}

/**
 * checkWebhookUrl + DNS at creation time: every address the host resolves to must be public (unless allowPrivate).
 * A host that does not resolve (ENOTFOUND, EAI_AGAIN, no network, any look-up failure) is ACCEPTED here: creation
 * must work on machines without DNS, and nothing is lost because the send-time guardedLookup refuses the
 * connection anyway if the name later resolves to a private address.
 */
export async function checkWebhookTarget(
  raw: string,
  policy: TargetPolicy,
  lookup: AddressLookup = creationLookup,
): Promise<UrlCheck> {
  const check = checkWebhookUrl(raw, policy);
  if (!check.ok || policy.allowPrivate) return check;
  const host = bareHostname(check.url);
  if (isIP(host) !== 0) return check; // literals were already judged by checkWebhookUrl
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host);
  } catch {
    return check; // does not resolve (yet): accepted, the send-time check decides
  }
  const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
  return blocked ? refuse('private_address', privateAddressMessage(blocked.address)) : check;
}

/**
 * A `lookup` for net/tls connect options (and http.Agent options) that resolves through `resolve` and fails the
 * connection with an error whose code is EWEBHOOK_PRIVATE_ADDRESS when any address is not public (unless
 * allowPrivate). Supports both callback forms Node uses: options.all === true → callback(err, addresses[]),
 * otherwise callback(err, address, family). This covers DNS rebinding: the address checked is the address connected to.
 */
export function guardedLookup(policy: TargetPolicy, resolve: typeof dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : '');
      const failure = lookupFailure(hostname, addresses, policy);
      if (failure) return callback(failure, options.all ? [] : '');
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function lookupFailure(hostname: string, addresses: dns.LookupAddress[], policy: TargetPolicy): NodeJS.ErrnoException | null {
  if (addresses.length === 0) return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  if (policy.allowPrivate) return null;
  const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
  return blocked ? privateAddressError(blocked.address) : null;
}

function privateAddressError(address: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`private address refused (${address})`), { code: PRIVATE_ADDRESS_ERROR_CODE });
}

const creationLookup = addressLookup(CREATION_DNS);

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function checkScheme(url: URL, policy: TargetPolicy): Refusal | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return policy.allowHttp ? null : refuse('scheme', `url must use https (${ALLOW_HTTP_HINT})`);
  return refuse('scheme', `url must use https, not ${url.protocol.replace(/:$/, '')}`);
}

function checkCredentials(url: URL): Refusal | null {
  if (url.username === '' && url.password === '') return null;
  return refuse('credentials', 'url must not contain a user name or password (user:password@); use the signing secret to authenticate');
}

function checkHost(url: URL, policy: TargetPolicy): Refusal | null {
  const host = bareHostname(url);
  if (host === '') return refuse('invalid_url', 'url must contain a host name');
  if (policy.allowPrivate) return null;
  if (isIP(host) !== 0) return isPublicAddress(host) ? null : refuse('private_address', privateAddressMessage(host));
  if (isPrivateHostName(host)) {
    return refuse('private_address', `url host ${host} is a local or internal name; ${ALLOW_PRIVATE_HINT}`);
  }
  return null;
}

/** The host name without IPv6 brackets, lower-cased, without the trailing dot of a fully qualified name. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '').toLowerCase();
}

function isPrivateHostName(host: string): boolean {
  return PRIVATE_HOST_NAMES.includes(host) || PRIVATE_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

function privateAddressMessage(address: string): string {
  return `url resolves to a private, loopback, link-local or metadata address (${address}); ${ALLOW_PRIVATE_HINT}`;
}

function refuse(reason: Refusal['reason'], message: string): Refusal {
  return { ok: false, reason, message };
}
