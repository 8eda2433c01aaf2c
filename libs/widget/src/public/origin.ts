// Web origins as the widget's allow-list holds them and browsers send them (`Origin` header):
// scheme, host and port, lowercase, the default port left out.

/** The origin `text` names (`https://Shop.Example:443/` → `https://shop.example`), or null when it is not one. */
export function normalizeOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' && url.pathname !== '') return null;
  // A bare origin with a trailing path of '/' is still an origin; anything deeper is a page, not one.
  if (/^[a-z]+:\/\/[^/]+\/./i.test(text.trim())) return null;
  return url.origin;
}

/**
 * Whether a request from `origin` (the Origin header; undefined when none was sent) may use a
 * seller's widget routes: any origin when the list is empty; else only a listed one. A request
 * without an Origin header is not a browser's cross-origin call: the list does not apply to it
 * (it cannot stop a script that forges headers anyway).
 */
export function originAllowed(allowedOrigins: readonly string[], origin: string | undefined): boolean {
  if (allowedOrigins.length === 0 || origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  return normalized !== null && allowedOrigins.includes(normalized);
}
