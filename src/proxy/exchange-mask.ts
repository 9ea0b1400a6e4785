/**
 * The one mask of what the proxy keeps of an exchange: its log line, its violations (and so
 * `/__admin/violations`, the summary and the JUnit file) and the fixtures it records. The secrets
 * of an exchange are:
 * - the client's credentials: `Authorization`, `Proxy-Authorization`, every cookie of `Cookie`, the
 *   headers and query parameters the document's `apiKey` schemes name, and any header or query
 *   parameter named like a secret (`X-Session-Id`, `?access_token=`, `?key=`: core/secret-names.ts);
 * - the values of fields named like secrets in the request's body and in the answer's (JSON, or a
 *   form), at any depth, and the answer's headers named like one (the cookies it sets).
 * Each becomes `***` wherever it appears, in every form `secretMask` knows (as sent, URL-encoded,
 * inside a Basic credential, after `Bearer `, escaped in JSON), whole or inside a longer text; and a
 * secret query parameter's value is `***` in a path whatever its length.
 *
 * @example
 * const maskOf = exchangeMasker(document.api);
 * maskOf({ target: '/pets?api_key=k3y-value', headers: { authorization: 'Bearer s3cret-value' } }).text('echo: s3cret-value') // 'echo: ***'
 */
import { queryKeyNames } from '../mock/app.js';
import { fromUtf8 } from '../core/bytes.js';
import { isJsonObject } from '../core/json-object.js';
import { isSecretName, isSecretParameterName } from '../core/secret-names.js';
import type { DocumentObject } from '../openapi/document/objects.js';
import { MASK, secretMask, type Mask } from '../contract/report/mask.js';

export interface ExchangeMask extends Mask {
  /** A path and query with the values of secret query parameters `***`, then every secret of the exchange masked. */
  target: (pathAndQuery: string) => string;
}

/** What the mask reads of a request: its path and query, its headers (names in lower case), its body. */
export interface MaskedRequest {
  target: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** What the mask reads of an answer: its headers, its body parsed. */
export interface MaskedAnswer {
  headers: Headers;
  json?: unknown;
}

/** Masks kept for the secrets last seen: under load the same credentials come again and again. */
const MASKS_KEPT = 256;

/** @returns the mask of one exchange, from its request and (when there is one) its answer. */
export function exchangeMasker(api: DocumentObject): (request: MaskedRequest, answer?: MaskedAnswer) => ExchangeMask {
  const declaredHeaders = new Set(['authorization', 'proxy-authorization', 'cookie']);
  const declaredQuery = new Set(queryKeyNames(api));
  for (const scheme of Object.values(api.components?.securitySchemes ?? {})) {
    if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') declaredHeaders.add(scheme.name.toLowerCase());
  }
  // Names come again and again (the same headers on every request): each is judged once.
  const secretHeader = remembered((name) => declaredHeaders.has(name.toLowerCase()) || isSecretParameterName(name));
  const secretQuery = remembered((name) => declaredQuery.has(name) || isSecretParameterName(name));
  const masks = new Map<string, ExchangeMask>();

  return (request, answer) => {
    const found: string[] = [];
    for (const [name, value] of Object.entries(request.headers)) {
      if (!secretHeader(name)) continue;
      found.push(value);
      // Each cookie's value on its own too (the credential after its scheme is secretMask's).
      for (const part of value.split(';')) if (part.includes('=')) found.push(part.slice(part.indexOf('=') + 1).trim());
    }
    const query = queryOf(request.target);
    for (const [name, value] of query) if (secretQuery(name)) found.push(value);
    if (request.body?.byteLength) secretValues(parsedBody(request.body), found);
    answer?.headers.forEach((value, name) => {
      if (!secretHeader(name)) return;
      found.push(value);
      const pair = value.split(';')[0];
      if (pair.includes('=')) found.push(pair.slice(pair.indexOf('=') + 1).trim());
    });
    if (answer?.json !== undefined) secretValues(answer.json, found);

    const key = found.join('\u0000');
    let mask = masks.get(key);
    if (!mask) {
      if (masks.size >= MASKS_KEPT) masks.clear();
      const values = secretMask({ headers: Object.fromEntries(found.map((value, i) => [String(i), value])) });
      masks.set(key, (mask = { ...values, target: (pathAndQuery) => values.text(maskQuery(pathAndQuery, secretQuery)) }));
    }
    return mask;
  };
}

/** Names judged, kept up to a bound (a client may send a new name with every request). */
const NAMES_KEPT = 1024;

function remembered(judge: (name: string) => boolean): (name: string) => boolean {
  const judged = new Map<string, boolean>();
  return (name) => {
    let secret = judged.get(name);
    if (secret === undefined) {
      if (judged.size >= NAMES_KEPT) judged.clear();
      judged.set(name, (secret = judge(name)));
    }
    return secret;
  };
}

/** The query's pairs, decoded; none for a query that does not decode. */
function queryOf(target: string): Array<[string, string]> {
  const at = target.indexOf('?');
  return at < 0 ? [] : [...new URLSearchParams(target.slice(at + 1))];
}

/** A body as JSON, else as a form (`password=...`), else nothing. */
function parsedBody(body: Uint8Array): unknown {
  const text = fromUtf8(body);
  try {
    return JSON.parse(text);
  } catch {
    return /^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(text.trim()) ? Object.fromEntries(new URLSearchParams(text.trim())) : undefined;
  }
}

/** The strings and numbers held, at any depth, under a property named like a secret. */
function secretValues(value: unknown, into: string[], secret = false): void {
  if (Array.isArray(value)) for (const item of value) secretValues(item, into, secret);
  else if (isJsonObject(value)) for (const [name, item] of Object.entries(value)) secretValues(item, into, secret || isSecretName(name));
  else if (secret && (typeof value === 'string' || typeof value === 'number')) into.push(String(value));
}

/** `/x?access_token=abc&limit=5` -> `/x?access_token=***&limit=5`: the values of the secret parameters, whatever their length. */
function maskQuery(target: string, secret: (name: string) => boolean): string {
  const at = target.indexOf('?');
  if (at < 0) return target;
  const pairs = target
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && secret(decodedName(name)) ? `${name}=${MASK}` : pair;
    });
  return `${target.slice(0, at)}?${pairs.join('&')}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
