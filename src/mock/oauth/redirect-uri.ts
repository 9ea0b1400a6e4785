/**
 * Where the mock may send a browser back with a code or a token. A mock has no registered
 * clients, so it cannot compare `redirect_uri` with a registration: it takes an http(s) URL
 * without a fragment or credentials whose origin is a loopback one (localhost, *.localhost,
 * 127.0.0.0/8, [::1], any port: a dev server on this machine) or one the operator allowed
 * (`--oauth-redirect-origin`). Any other is refused without a redirect, so the mock is no open
 * redirector and hands no code to another site.
 *
 * The mock itself is the exception: its API (and /__spec, and /__oauth's token endpoint) answers
 * any origin through CORS, so a page of another site that ended up there with a code could read
 * the URL. A code goes to the mock only at the pages given as its own callbacks (the docs page's,
 * which grants no origin), whichever name or scheme reaches it: its own origin, any loopback name
 * on its port, or the name it was reached by on that port.
 */

/** What a `redirect_uri` is checked against. */
export interface RedirectRules {
  /** The mock's origin, as the request reached it (`http://127.0.0.1:4010`). */
  mockOrigin: string;
  /** The mock's own pages a code may go to (its docs page's callback when the docs page is served; none otherwise). */
  ownCallbacks: readonly string[];
  /** Origins the operator allowed (`https://app.example.com`), besides loopback ones. */
  allowedOrigins: readonly string[];
}

/**
 * The URL, or the sentence saying why it is refused.
 *
 * @example checkRedirectUri('http://localhost:5173/cb', { mockOrigin: 'http://127.0.0.1:4010', ownCallbacks: [], allowedOrigins: [] }) // a URL
 */
export function checkRedirectUri(uri: string | undefined, rules: RedirectRules): URL | string {
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
  if (reachesTheMock(url, new URL(rules.mockOrigin))) {
    if (rules.ownCallbacks.includes(url.pathname)) return url;
    const callbacks = rules.ownCallbacks.length ? rules.ownCallbacks.join(', ') : 'and the docs page is off';
    return `redirect_uri ${quoted(uri)} is the mock itself, whose API answers a page of any site (CORS), so that page could read the code there; a code goes to the mock only at its docs page's callback, ${callbacks}.`;
  }
  if (isLoopbackHost(url.hostname) || rules.allowedOrigins.some((origin) => sameOrigin(origin, url.origin))) return url;
  return `redirect_uri ${quoted(uri)} is not on this machine (localhost, 127.0.0.1, [::1]) nor the mock's own origin; allow its origin with --oauth-redirect-origin ${url.origin} (oauth.redirectOrigins in the library).`;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The port a URL names, its scheme's default when it names none. */
export function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** The mock listens on one port: its own origin, and on that port every loopback name and the name it was reached by, in either scheme. */
function reachesTheMock(url: URL, mock: URL): boolean {
  if (url.origin === mock.origin) return true;
  return portOf(url) === portOf(mock) && (isLoopbackHost(url.hostname) || url.hostname === mock.hostname);
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
