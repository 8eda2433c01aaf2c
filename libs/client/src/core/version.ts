// The client's version: sent in `User-Agent` and `X-Client-User-Agent` as `commerce-client/<version>`.
// Bumped by hand with a release of the client, with libs/client/package.json's version (the one it
// is published as; package.unit.spec.ts fails while the two differ).
export const CLIENT_VERSION = '0.1.0';

/** The product token every request names itself with. */
export const CLIENT_USER_AGENT = `commerce-client/${CLIENT_VERSION}`;
