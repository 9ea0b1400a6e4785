/**
 * The document as the docs page shows it, and what the page reads from it: pure functions, run in
 * the page (src/mock/docs/ui) and tested on Node. The reference stays the document's; where a request
 * goes changes: every server becomes the mock, and the `x-codeSamples` that name one of the
 * document's servers name the mock instead, so a sample copied from the page runs against it. And
 * what the try-it panel and the examples start from: the mock's records (add-try-it-values.ts),
 * and numbers within their bounds (number-examples.ts).
 */
import { objectOr, type JsonObject } from '../../core/json-object.js';
import type { DocumentObject, OperationObject, ResponseObject } from '../../openapi/document/objects.js';
import { HTTP_METHODS } from '../../openapi/operations/operation.js';
import { OAUTH_ENDPOINTS } from '../oauth/oauth-paths.js';
import { serverUrl } from '../../openapi/operations/server-base-path.js';
import { addNumberExamples } from './number-examples.js';
import { addTryItValues } from './add-try-it-values.js';
import type { TryItValues } from './try-it-values.js';

/** The page's settings, written into it by the mock (GET /__docs) as JSON. */
export interface DocsConfig {
  /** The document's title, for the page's. */
  title: string;
  /** Where the page reads the document: the mock's copy (`/__spec.json`). */
  specUrl: string;
  /** The path the document's operations are served under (`/v1`, or ``). */
  basePath: string;
  /** A key the try-it panel is given (Authorize filled in), when the page may show one (README, "The docs page"). */
  apiKey?: string;
  /** The headers the mock sends on each deprecated operation (`get /pets/{petId}`): Deprecation, Sunset, Link. */
  deprecations: Record<string, Record<string, string>>;
  /** Keys of the mock's records for the try-it panel, read when the page was served (none without a state). */
  values?: TryItValues;
  /** The mock serves an authorization server (/__oauth): Authorize's OAuth flows go to it, and come back to this page. */
  oauth?: { redirectPath: string };
}

/** One `x-codeSamples` entry (Redocly's extension; `x-code-samples` is its older spelling). */
export interface CodeSample {
  lang: string;
  label?: string;
  source: string;
}

/** An operation's code samples as written (`x-codeSamples`, else `x-code-samples`), entries without a string `source` left out. */
export function codeSamplesOf(operation: OperationObject): CodeSample[] {
  const samples = operation['x-codeSamples'] ?? operation['x-code-samples'];
  if (!Array.isArray(samples)) return [];
  return samples.filter((s): s is CodeSample => typeof s === 'object' && s !== null && typeof (s as { source?: unknown }).source === 'string').map((s) => ({ ...s, lang: String(s.lang ?? 'text') }));
}

/**
 * Whether an operation offers no try-it panel: `x-hideTryItPanel: true` on it, or at the
 * document's root (for all) unless the operation says `x-hideTryItPanel: false`.
 */
export function hidesTryIt(root: JsonObject, operation: JsonObject): boolean {
  const own = operation['x-hideTryItPanel'];
  return own === true || (own !== false && root['x-hideTryItPanel'] === true);
}

/** A `Prefer` the try-it panel offers for an operation: a declared status, or a named example. */
export interface Scenario {
  /** The header's value: `code=404`, `example=empty`. */
  prefer: string;
  /** What the choice reads as: `404 Not found`. */
  label: string;
}

/**
 * The scenarios the mock can play for an operation, from what it declares: each status written as
 * a number (`default` and ranges like `5XX` name no single status), then the named examples of its
 * first success response (the mock answers `Prefer: example=NAME` from them).
 */
export function scenariosOf(operation: OperationObject, resolve: (value: ResponseObject) => ResponseObject = (value) => value): Scenario[] {
  const responses = objectOr(operation.responses);
  const statuses = Object.keys(responses).filter((status) => /^[1-5]\d\d$/.test(status));
  const scenarios: Scenario[] = statuses.map((status) => ({ prefer: `code=${status}`, label: `${status} ${firstLine(resolve(responses[status] ?? {}).description)}`.trim() }));
  const success = statuses.find((status) => status.startsWith('2'));
  const content = success ? objectOr(resolve(responses[success] ?? {}).content) : {};
  const names = new Set<string>();
  for (const media of Object.values(content)) for (const name of Object.keys(objectOr(media?.examples))) names.add(name);
  for (const name of names) scenarios.push({ prefer: `example=${name}`, label: `${success} example "${name}"` });
  return scenarios;
}

/**
 * A copy of the document for the page: its servers (at the root, on path items and operations)
 * replaced by the mock's URL, and in each code sample every URL of a server it declared replaced
 * by the mock's; the mock's keys as the examples of the path parameters and references they are
 * given for (`values`), and bounded numbers given an example within their bounds (Swagger UI's
 * would be their maximum). With `authorizationServer` (the mock's origin, when it serves /__oauth),
 * the oauth2 flows' authorizationUrl, tokenUrl and refreshUrl, and the openIdConnectUrl, lead to
 * the mock's, so Authorize signs in against it. The rest (extensions included) as written.
 *
 * @example documentForDocs(api, 'http://127.0.0.1:4010').servers // [{ url: 'http://127.0.0.1:4010', description: 'This mock' }]
 */
export function documentForDocs(api: DocumentObject, mockUrl: string, values?: TryItValues, authorizationServer?: string): DocumentObject {
  const doc = structuredClone(api);
  if (authorizationServer !== undefined) pointFlowsAt(doc, authorizationServer);
  const declared = new Set<string>(serverUrls(doc.servers));
  doc.servers = [{ url: mockUrl, description: 'This mock' }];
  const withSamples: OperationObject[] = [];
  for (const item of Object.values(objectOr(doc.paths))) {
    if (!item || typeof item !== 'object') continue;
    for (const url of serverUrls(item.servers)) declared.add(url);
    delete item.servers;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation || typeof operation !== 'object') continue;
      for (const url of serverUrls(operation.servers)) declared.add(url);
      delete operation.servers;
      withSamples.push(operation);
    }
  }
  // Every server is known only once all are read. Longest first: `https://api.example.com/v1` is replaced before `https://api.example.com` could be.
  const urls = [...declared].filter((url) => /^https?:\/\//i.test(url)).sort((a, b) => b.length - a.length);
  for (const operation of withSamples) {
    for (const key of ['x-codeSamples', 'x-code-samples']) {
      const samples = operation[key];
      if (!Array.isArray(samples)) continue;
      operation[key] = samples.map((sample: unknown) =>
        sample && typeof sample === 'object' && typeof (sample as CodeSample).source === 'string'
          ? { ...sample, source: pointAt((sample as CodeSample).source, urls, mockUrl) }
          : sample,
      );
    }
  }
  if (values) addTryItValues(doc, values);
  addNumberExamples(doc);
  return doc;
}

/** The document's oauth2 flows and openIdConnect discovery pointed at the mock's authorization server (at `origin`). */
function pointFlowsAt(doc: DocumentObject, origin: string): void {
  for (const scheme of Object.values(objectOr(doc.components?.securitySchemes))) {
    if (!scheme || typeof scheme !== 'object') continue;
    if (scheme.type === 'openIdConnect') scheme.openIdConnectUrl = `${origin}${OAUTH_ENDPOINTS.openIdConfiguration}`;
    if (scheme.type !== 'oauth2') continue;
    for (const flow of Object.values(objectOr(scheme.flows))) {
      if (!flow || typeof flow !== 'object') continue;
      if ('authorizationUrl' in flow) flow.authorizationUrl = `${origin}${OAUTH_ENDPOINTS.authorize}`;
      if ('tokenUrl' in flow) flow.tokenUrl = `${origin}${OAUTH_ENDPOINTS.token}`;
      if ('refreshUrl' in flow) flow.refreshUrl = `${origin}${OAUTH_ENDPOINTS.token}`;
    }
  }
}

/** The URLs of a `servers` list, variables at their defaults, without a trailing slash. */
function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  return servers.map(serverUrl).filter((url): url is string => url !== undefined).map((url) => url.replace(/\/+$/, ''));
}

/** The source with each of the URLs (at a boundary: not `http://localhost:40100`) replaced by the mock's. */
function pointAt(source: string, urls: readonly string[], mockUrl: string): string {
  let text = source;
  for (const url of urls) {
    const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    text = text.replace(new RegExp(`${escaped}(?![\\w.:-])`, 'g'), mockUrl);
  }
  return text;
}

function firstLine(text: unknown): string {
  return typeof text === 'string' ? text.split('\n')[0].trim() : '';
}
