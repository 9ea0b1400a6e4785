/**
 * Where the mock may send a browser back with a code or a token. A mock has no registered
 * clients, so it cannot compare `redirect_uri` with a registration: it takes an http(s) URL
 * without a fragment whose origin is a loopback one (localhost, *.localhost, 127.0.0.0/8, [::1], any
 * port: a dev server on this machine), the mock's own origin (its docs page), or one of the
 * origins the operator allowed (`--oauth-redirect-origin`). Any other is refused without a
 * redirect, so the mock is no open redirector and hands no code to another site.
 */

/** The URL, or the sentence saying why it is refused. */
export function checkRedirectUri(uri: string | undefined, mockOrigin: string, allowedOrigins: readonly string[]): URL | string {
  if (!uri) return 'redirect_uri is required: the mock has no registered clients to take it from.';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect_uri ${quoted(uri)} is not an absolute URL.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `redirect_uri ${quoted(uri)} is not an http(s) URL.`;
  if (url.hash !== '' || uri.includes('#')) return `redirect_uri ${quoted(uri)} has a fragment, which RFC 6749 (section 3.1.2) forbids.`;
  if (url.username || url.password) return `redirect_uri ${quoted(uri)} carries credentials.`;
  if (isLoopbackHost(url.hostname) || url.origin === mockOrigin || allowedOrigins.some((origin) => sameOrigin(origin, url.origin))) return url;
  return `redirect_uri ${quoted(uri)} is not on this machine (localhost, 127.0.0.1, [::1]) nor the mock's own origin; allow its origin with --oauth-redirect-origin ${url.origin} (oauth.redirectOrigins in the library).`;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function sameOrigin(allowed: string, origin: string): boolean {
  try {
    return new URL(allowed).origin === origin;
  } catch {
    return false;
  }
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}
