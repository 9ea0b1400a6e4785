/**
 * `GET /__docs`: an interactive reference of the document being mocked, built on Swagger UI
 * (swagger-ui-dist, copied into the package by the build) and extended through its plugin API by
 * src/mock/docs/ui: stability badges, deprecation and sunset notices, code samples, the try-it panel's
 * `Prefer` scenarios and `x-hideTryItPanel`, and its starting values taken from the mock's records. Every asset is served from here: the page makes no
 * request beyond the mock's origin, and its Content-Security-Policy says so to the browser.
 *
 * The assets come through `DocsAssets` (the package's files on Node, src/mock/docs/docs-assets.ts), so
 * the pipeline itself reads no file: without them (the mock running in a browser) the page is a 404.
 */
import type { Operation } from '../../openapi/operations/operation.js';
import { ApiError, errorResponse } from '../../core/api-error.js';
import { escapeHtml } from '../../core/html.js';
import { deprecationLink, deprecationPolicy } from '../respond/deprecation.js';
import { SECURITY_HEADERS } from '../../core/security-headers.js';
import { entityTag, matchesEtag, SPEC_PATH } from '../spec-endpoint.js';
import { type DocsConfig } from './docs-document.js';
import { operationKey } from './operation-key.js';
import type { TryItValues } from './try-it-values.js';

/** Where the page is served; its assets are below it (`/__docs/swagger-ui-bundle.js`). */
export const DOCS_PATH = '/__docs';

/** The files the page loads, by the name it asks for them under, and the page Swagger UI's OAuth sign-in comes back to (with its script). */
export const DOCS_ASSET_NAMES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'docs-ui.js', 'docs-ui.css', 'oauth2-redirect.html', 'oauth2-redirect.js'] as const;

/** Where Swagger UI's Authorize sends an OAuth sign-in back to (swagger-ui-dist's oauth2-redirect.html). */
export const OAUTH2_REDIRECT_PATH = `/__docs/oauth2-redirect.html`;
export type DocsAssetName = (typeof DOCS_ASSET_NAMES)[number];

/** One asset's bytes, and the same gzipped when the source can (sent to clients that accept it). */
export interface DocsAsset {
  body: Uint8Array;
  gzip?: Uint8Array;
}

/** Where the page's assets come from: the asset by name, or undefined when the source lacks it. */
export interface DocsAssets {
  get(name: DocsAssetName): DocsAsset | undefined;
}

/** What the page is built from. */
export interface DocsPageOptions {
  title: string;
  basePath: string;
  operations: readonly Operation[];
  /** The key to offer the try-it panel for a request, or undefined to offer none. */
  keyFor: (request: DocsRequest) => string | undefined;
  /** Keys of the mock's records, and requests made of them, for the try-it panel (src/mock/docs/try-it-values.ts, try-it-requests.ts), read for each page that offers a key. */
  values?: () => TryItValues | Promise<TryItValues>;
  /** The mock serves an authorization server (/__oauth): the page points the document's OAuth flows at it. */
  oauth?: boolean;
}

/** What one request for the page or an asset says. */
export interface DocsRequest {
  /** `swagger-ui.css` below /__docs, undefined for the page itself. */
  asset?: string;
  acceptEncoding?: string | null;
  ifNoneMatch?: string | null;
  /** Whether the caller is on this machine (loopback, not through a proxy): see `keyFor`. */
  local: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

/**
 * The page's Content-Security-Policy: scripts, styles and connections to the mock's own origin
 * only (inline styles allowed: Swagger UI's React components set `style` attributes).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Answers the page and its assets. The page carries its settings (DocsConfig) as JSON; it reads
 * the document from /__spec.json. Each asset is read from `assets` once, and kept with its tag.
 *
 * @example
 * const docs = docsResponder(assets, { title, basePath, operations, keyFor: () => 'petstore-demo-key' });
 * app.get('/__docs', (c) => docs({ local: true }));
 */
export function docsResponder(assets: DocsAssets, options: DocsPageOptions): (request: DocsRequest) => Response | Promise<Response> {
  const deprecations: DocsConfig['deprecations'] = {};
  for (const operation of options.operations) {
    const policy = deprecationPolicy(operation, options.basePath);
    // Docs on the mock's own server are shown at the mock's path.
    if (policy) deprecations[operationKey(operation.method, operation.path)] = policy.docsPath === undefined ? policy.headers : { ...policy.headers, Link: deprecationLink(policy.docsPath, policy.sunset) };
  }
  /** Each asset once read, with the tags of its two representations (each coding is its own, RFC 9110 §8.8.3). */
  const tagged = new Map<string, { asset: DocsAsset; etag: string; gzipEtag: string }>();
  return (request) => {
    if (request.asset === undefined) {
      const apiKey = options.keyFor(request);
      // Keys of records go with a key only: a caller without one could not read them from the API either.
      const oauth = options.oauth ? { redirectPath: OAUTH2_REDIRECT_PATH } : undefined;
      const config = (values?: TryItValues) => page({ title: options.title, specUrl: `${SPEC_PATH}.json`, basePath: options.basePath, apiKey, deprecations, values, oauth });
      const values = apiKey === undefined ? undefined : options.values?.();
      return values instanceof Promise ? values.then(config) : config(values);
    }
    const name = DOCS_ASSET_NAMES.find((known) => known === request.asset);
    const asset = name && assets.get(name);
    if (!name || !asset) return errorResponse(new ApiError(404, 'NOT_FOUND', `The docs page has no asset ${request.asset}.`));
    let entry = tagged.get(name);
    if (!entry) {
      const etag = entityTag(asset.body);
      tagged.set(name, (entry = { asset, etag, gzipEtag: `${etag.slice(0, -1)}-gzip"` }));
    }
    const gzip = entry.asset.gzip && acceptsGzip(request.acceptEncoding) ? entry.asset.gzip : undefined;
    const etag = gzip ? entry.gzipEtag : entry.etag;
    const headers: Record<string, string> = { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache', ETag: etag, Vary: 'Accept-Encoding' };
    if (matchesEtag(request.ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
    headers['Content-Type'] = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
    // The OAuth redirect page runs its script from here and nothing else; it cannot be framed either.
    if (name.endsWith('.html')) Object.assign(headers, { 'Content-Security-Policy': DOCS_CSP, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
    if (gzip) headers['Content-Encoding'] = 'gzip';
    return new Response((gzip ?? entry.asset.body) as Uint8Array<ArrayBuffer>, { status: 200, headers });
  };
}

/** The 404 at /__docs when the mock has no assets for the page (it runs in a browser, or `docs: false`). */
export function docsUnavailable(): Response {
  return errorResponse(new ApiError(404, 'NOT_FOUND', 'The docs page is off: it is served by petstore-mock-kit serve (without --no-docs) and by createMock on Node.'));
}

/** The HTML page: Swagger UI's stylesheet and bundle, then ours, and the settings as JSON (`<` escaped, so no text in them ends the script). */
function page(config: DocsConfig): Response {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(config.title)} · API reference (mock)</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${DOCS_PATH}/docs-ui.css">
</head>
<body>
<main id="mock-docs-main"><div id="docs"></div></main>
<script type="application/json" id="mock-docs-config">${json}</script>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/docs-ui.js"></script>
</body>
</html>
`;
  return new Response(html, {
    status: 200,
    // no-store: the page may carry an API key.
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': DOCS_CSP, 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' },
  });
}

/** Whether `Accept-Encoding` takes gzip (with a q-value above 0). */
function acceptsGzip(acceptEncoding: string | null | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((coding) => {
    const [name, ...params] = coding.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return name === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

