/**
 * The document's own token, authorization and discovery URLs that are on the API's origin, served
 * by the mock's authorization server beside /__oauth: a relative `tokenUrl` (`/oauth/token`), or an
 * absolute one on the origin of the document's server URL, gets its tokens there. A relative URL
 * resolves against the server URL (`servers[0].url`) taken as a folder, so `oauth/token` under
 * `/v1` is `/v1/oauth/token` and `/oauth/token` is at the root. An absolute URL on another origin
 * (a real identity provider) is answered only to requests that reach the mock by that origin.
 * A document operation at the same method and path keeps it: the operation wins, with a warning.
 */
import { HTTP_METHODS, type Operation } from '../../openapi/operations/operation.js';
import { templateMatcher } from '../../openapi/operations/path-template.js';
import { firstServerUrl, serverBasePath } from '../../openapi/operations/server-base-path.js';
import type { DocumentObject } from '../../openapi/document/objects.js';
import { OAUTH_ENDPOINTS } from './oauth-paths.js';

/** One of the document's URLs, and the endpoint of the mock's server it names. */
export interface DocumentOAuthUrl {
  url: string;
  /** `/__oauth/token`, `/__oauth/authorize` or `/__oauth/.well-known/openid-configuration`. */
  endpoint: string;
  /** Where the document gives it: `oauth.flows.authorizationCode.tokenUrl`. */
  where: string;
}

export interface DocumentOAuthPath {
  /** The path on the mock: `/oauth/token`. */
  path: string;
  /** The endpoint of the mock's server it answers as: `/__oauth/token`. */
  endpoint: string;
  /** The methods it is answered for here: every one, but those an operation of the document takes at the same path. */
  methods: string[];
  /** For an absolute URL off the server URL's origin: answered only to requests that reach the mock by this origin. */
  origin?: string;
  /** The URL as the document writes it (the first, when it gives the same one twice). */
  url: string;
}

/** Each endpoint's methods; with an operation at the same path, only these (and OPTIONS) are answered there. */
const ENDPOINT_METHODS: Record<string, string[]> = {
  [OAUTH_ENDPOINTS.token]: ['POST'],
  [OAUTH_ENDPOINTS.authorize]: ['GET', 'POST'],
  [OAUTH_ENDPOINTS.openIdConfiguration]: ['GET', 'HEAD'],
};

/** A path a route can name as it is: no percent-encoding, and none of the router's `:`, `*`, `{`, `}`. */
const ROUTABLE = /^(\/[A-Za-z0-9._~!$&'()+,;=@-]*)+$/;
/** Stands for the mock's origin when the server URL is relative (or absent). */
const MOCK_ORIGIN = 'http://mock-origin.invalid';
const ALL_METHODS = HTTP_METHODS.map((m) => m.toUpperCase());

/**
 * The document's URLs the mock serves, with the warnings for those an operation keeps.
 *
 * @example documentOAuthPaths(api, operations, [{ url: '/oauth/token', endpoint: '/__oauth/token', where: '...' }]).paths[0].path // '/oauth/token'
 */
export function documentOAuthPaths(api: DocumentObject, operations: readonly Operation[], urls: readonly DocumentOAuthUrl[]): { paths: DocumentOAuthPath[]; warnings: string[] } {
  const server = resolve(asFolder(firstServerUrl(api) ?? '/'), new URL(MOCK_ORIGIN)) ?? new URL(MOCK_ORIGIN);
  const basePath = serverBasePath(api);
  const matchers = operations.map((op) => ({ op, matches: templateMatcher(op.path, basePath) }));
  const paths: DocumentOAuthPath[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const { url, endpoint, where } of urls) {
    const target = resolve(url, server);
    // The mock's own paths (/__oauth/token itself, /__admin...) are served already, or never.
    if (!target || !ROUTABLE.test(target.pathname) || target.pathname.startsWith('/__')) continue;
    const origin = target.origin === server.origin ? undefined : target.origin;
    // A URL given twice (a flow's tokenUrl and refreshUrl, two flows) is served, or warned of, once.
    const key = `${origin ?? ''} ${target.pathname}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const declared = new Set(matchers.filter(({ matches }) => matches(target.pathname) !== undefined).map(({ op }) => op.method.toUpperCase()));
    if (declared.has('GET')) declared.add('HEAD');
    const taken = declared.size === 0 ? [] : [...ENDPOINT_METHODS[endpoint], 'OPTIONS'].filter((m) => declared.has(m));
    const methods = declared.size === 0 ? ALL_METHODS : [...ENDPOINT_METHODS[endpoint], 'OPTIONS'].filter((m) => !declared.has(m));
    // Only a URL the mock answers whatever its origin can hide an operation; one of another origin steps aside silently.
    const shown = taken.filter((m) => m !== 'OPTIONS' && m !== 'HEAD');
    if (origin === undefined && shown.length) {
      const ids = matchers.filter(({ op, matches }) => shown.includes(op.method.toUpperCase()) && matches(target.pathname) !== undefined).map(({ op }) => op.id);
      warnings.push(`${shown.join(', ')} ${target.pathname} is the document's ${where} and its operation ${ids.join(', ')}: the operation answers it; the mock's ${endpoint} stays there.`);
    }
    if (methods.some((m) => ENDPOINT_METHODS[endpoint].includes(m))) paths.push({ path: target.pathname, endpoint, methods, ...(origin === undefined ? {} : { origin }), url });
  }
  return { paths, warnings };
}

/** `/v1` as a base to resolve against: `/v1/` (a relative URL goes under it). */
function asFolder(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function resolve(url: string, base: URL): URL | undefined {
  try {
    const target = new URL(url, base);
    return target.protocol === 'http:' || target.protocol === 'https:' ? target : undefined;
  } catch {
    return undefined;
  }
}
