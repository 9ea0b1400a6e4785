/**
 * The request Swagger UI's try-it panel sends by default for each operation of the docs page's
 * copy of a document (src/mock/docs/docs-document.ts `documentForDocs`, as the page builds it), read
 * as Swagger UI reads its starting values: a parameter from its first named example, else its
 * `example`, else its schema's `example`, else its schema's `default`; a JSON body from its media
 * type's first named example, else its `example`; a form's fields from their properties'
 * examples; Authorize filled in with the key as the page fills it in (bearer, basic, apiKey), and
 * an OAuth 2.0 or OpenID Connect scheme signed in (the mock takes its key as a bearer token too).
 * What Swagger UI would not send (a required value it has none for) is listed in `missing`; a
 * body it would make up itself (the page gives it none) is `ownSample`, not known here.
 */
import type { DocumentObject, OperationObject, ParameterObject, PathItemObject } from '../openapi/document/objects.js';
import type { SchemaObject } from '../openapi/document/schema.js';
import { followRef } from '../mock/docs/follow-ref.js';
import { documentForDocs, hidesTryIt, type DocsConfig } from '../mock/docs/docs-document.js';
import { HTTP_METHODS } from '../openapi/operations/operation.js';

export interface DefaultRequest {
  method: string;
  /** The path template (`/pets/{petId}`). */
  template: string;
  operation: OperationObject;
  /** The path with its values and the query string, below the base path. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Required values Swagger UI has none for (it would send nothing). */
  missing: string[];
  /** The page gives no body for the operation's media type: Swagger UI would send a sample of its own. */
  ownSample?: boolean;
}

/** The page as a browser on this machine gets it from a mock (GET /__docs, /__spec.json), and its copy of the document, as the page's script makes it. */
export async function pageOf(mock: { app: { request(path: string): Response | Promise<Response> } }, mockUrl = 'http://mock.test'): Promise<{ config: DocsConfig; page: DocumentObject }> {
  const html = await (await mock.app.request('/__docs')).text();
  const json = /<script type="application\/json" id="mock-docs-config">([^]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error(`GET /__docs has no settings: ${html.slice(0, 200)}`);
  const config = JSON.parse(json) as DocsConfig;
  const spec = (await (await mock.app.request(config.specUrl)).json()) as DocumentObject;
  return { config, page: documentForDocs(spec, `${mockUrl}${config.basePath}`, config.values) };
}

/** The default request of each operation that offers try-it (`x-hideTryItPanel` left out). */
export function defaultRequests(page: DocumentObject, apiKey: string): DefaultRequest[] {
  const out: DefaultRequest[] = [];
  for (const [template, rawItem] of Object.entries(page.paths ?? {})) {
    const item = followRef(page, rawItem as PathItemObject) as PathItemObject;
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation || hidesTryIt(page as Record<string, unknown>, operation as Record<string, unknown>)) continue;
      out.push(requestOf(page, item, method, template, operation, apiKey));
    }
  }
  return out;
}

function requestOf(page: DocumentObject, item: PathItemObject, method: string, template: string, operation: OperationObject, apiKey: string): DefaultRequest {
  const missing: string[] = [];
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  let url = template;
  for (const parameter of parametersOf(page, item, operation)) {
    const value = startingValue(page, parameter);
    const name = String(parameter.name);
    if (value === undefined) {
      if (parameter.required) missing.push(`${parameter.in}.${name}`);
      continue;
    }
    const items = Array.isArray(value) ? value.map(text) : [text(value)];
    if (parameter.in === 'path') url = url.replace(`{${name}}`, encodeURIComponent(items.join(',')));
    else if (parameter.in === 'header') headers[name] = items.join(',');
    else if (parameter.in === 'query') {
      if (parameter.explode === false) query.append(name, items.join(','));
      else for (const one of items) query.append(name, one);
    } else if (parameter.in === 'cookie' && parameter.required) missing.push(`cookie.${name}`);
  }
  const requestBody = followRef(page, operation.requestBody as Record<string, unknown> | undefined);
  const content = (requestBody.content ?? {}) as Record<string, Record<string, unknown>>;
  const mediaType = Object.keys(content)[0];
  let body: string | undefined;
  let ownSample = false;
  if (mediaType !== undefined) {
    const media = followRef(page, content[mediaType]);
    const value = firstNamed(media.examples) ?? media.example;
    if (/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(mediaType)) {
      const schema = followRef(page, media.schema as SchemaObject | undefined);
      const form = new URLSearchParams();
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const field = followRef(page, property).example;
        if (field !== undefined) for (const one of Array.isArray(field) ? field : [field]) form.append(name, text(one));
      }
      body = form.toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    } else if (value !== undefined) {
      body = JSON.stringify(value);
      headers['Content-Type'] = mediaType;
    } else ownSample = true;
  }
  const { headers: keyHeaders, query: keyQuery } = credentials(page, operation, apiKey);
  Object.assign(headers, keyHeaders);
  for (const [name, value] of Object.entries(keyQuery)) query.set(name, value);
  const search = query.toString();
  return { method, template, operation, url: `${url}${search ? `?${search}` : ''}`, headers, body, missing, ownSample };
}

/** The operation's parameters, and its path's that it does not declare again. */
function parametersOf(page: DocumentObject, item: PathItemObject, operation: OperationObject): ParameterObject[] {
  const own = (operation.parameters ?? []).map((p) => followRef(page, p as ParameterObject) as ParameterObject);
  const shared = (item.parameters ?? []).map((p) => followRef(page, p as ParameterObject) as ParameterObject);
  return [...own, ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in))];
}

/** What Swagger UI fills a parameter in with (its parameter-row's initial value). */
function startingValue(page: DocumentObject, parameter: ParameterObject): unknown {
  const schema = followRef(page, parameter.schema as SchemaObject | undefined);
  const firstContent = parameter.content && typeof parameter.content === 'object' ? Object.values(parameter.content as Record<string, { example?: unknown }>)[0] : undefined;
  return firstNamed(parameter.examples) ?? firstContent?.example ?? parameter.example ?? schema.example ?? schema.default;
}

function firstNamed(examples: unknown): unknown {
  if (!examples || typeof examples !== 'object') return undefined;
  const first = Object.values(examples as Record<string, { value?: unknown }>)[0];
  return first?.value;
}

/** The headers and query parameters Authorize adds for the operation's first requirement. */
function credentials(page: DocumentObject, operation: OperationObject, apiKey: string): { headers: Record<string, string>; query: Record<string, string> } {
  const requirements = (operation.security ?? page.security ?? []) as Array<Record<string, unknown>>;
  const schemes = (page.components?.securitySchemes ?? {}) as Record<string, Record<string, unknown>>;
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const name of Object.keys(requirements[0] ?? {})) {
    const scheme = followRef(page, schemes[name]);
    const http = scheme.type === 'http' ? String(scheme.scheme).toLowerCase() : undefined;
    if (scheme.type === 'apiKey' && scheme.in === 'header') headers[String(scheme.name)] = apiKey;
    else if (scheme.type === 'apiKey' && scheme.in === 'query') query[String(scheme.name)] = apiKey;
    else if (http === 'basic') headers.Authorization = `Basic ${btoa(`${apiKey}:`)}`;
    else if (http === 'bearer' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') headers.Authorization = `Bearer ${apiKey}`;
  }
  return { headers, query };
}

function text(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
