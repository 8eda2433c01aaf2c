// The client's version: sent in `User-Agent` and `X-Client-User-Agent` as `commerce-client/<version>`.
// Bumped by hand with a release of the client.
export const CLIENT_VERSION = '0.1.0';

/** The product token every request names itself with. */
export const CLIENT_USER_AGENT = `commerce-client/${CLIENT_VERSION}`;
