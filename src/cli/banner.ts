/**
 * What `serve` says once it listens, built from the document it serves: how to send a key (or
 * that none is needed), where to get an OAuth token when its schemes ask for one, the records,
 * where the document, the admin API and the health check are,
 * and a `try` line that works on that document (a list, or else an operation with its required
 * parameters and body filled in). Pure: the CLI hands in what it read from `process`.
 */
import { maskUrl } from '../state/postgres-errors.js';
import { ADMIN_PATH } from '../mock/admin/admin-api.js';
import { DEFAULT_SEED, DEMO_API_KEY, type Mock } from '../mock/app.js';
import { DOCS_PATH } from '../mock/docs/docs-endpoint.js';
import { OAUTH_ENDPOINTS } from '../mock/oauth/oauth-paths.js';
import type { LoadedDocument } from '../openapi/document/document.js';
import type { SchemaObject } from '../openapi/document/schema.js';
import type { DocumentObject, ParameterObject } from '../openapi/document/objects.js';
import { createFaker } from '../openapi/generate/create-faker.js';
import { createGenerator } from '../openapi/generate/from-schema.js';
import { isLoopbackAddress, type AllowedHosts } from '../mock/middleware/host-guard.js';
import type { Operation } from '../openapi/operations/operation.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { credentialHint } from '../openapi/operations/credential-hint.js';
import { SPEC_PATH } from '../mock/spec-endpoint.js';
import { compileDocument, type CompiledDocument } from '../openapi/validation/compiled-document.js';
import { isJsonMediaType } from '../core/media-type.js';
import type { Banner, BannerLine } from './log.js';
import type { ServeArgs } from './parse-args.js';
import { HEALTH_PATH } from '../mock/assembly/own-endpoints.js';

/** What the banner is made from: the running server, its mock and document, and the flags. */
export interface BannerInput {
  /** Where the server listens: `http://127.0.0.1:4010`. */
  url: string;
  /** The mock; its compiled document (when it has one) checks the values the try-it command generates. */
  mock: Pick<Mock, 'operations' | 'answers' | 'collections' | 'store' | 'oauth' | 'counts'> & Partial<Pick<Mock, 'compiled'>>;
  document: Pick<LoadedDocument, 'api' | 'dialect' | 'convertedFrom'>;
  /** The document as the user named it (a path relative to the working directory, or a URL). */
  shown: string;
  args: Pick<ServeArgs, 'apiKeys' | 'noAdmin' | 'noDocs' | 'adminToken' | 'stateFile' | 'store' | 'storeNamespace' | 'delay' | 'errorRate' | 'now' | 'watch' | 'seed' | 'host'>;
  /** Where the API keys came from, when some replaced the demo key: `--api-key` or `MOCK_API_KEYS`. */
  keysFrom?: string;
  /** The state was read from the state file rather than seeded. */
  restored: boolean;
  /** The state was loaded from this database rather than seeded here (another replica seeded it): `PostgreSQL, namespace shared`. */
  loadedFrom?: string;
  allowedHosts: AllowedHosts;
}

/**
 * The banner's facts, in order.
 *
 * @example formatBanner(startBanner({ url, mock, document, shown: 'spec/openapi.yaml', args, restored: false, allowedHosts: ['127.0.0.1'] }), Date.now(), settings)
 */
export function startBanner(input: BannerInput): Banner {
  const { url, mock, document, args } = input;
  const line = (label: string, text: string, fields: Record<string, unknown>): BannerLine => ({ label, text, fields });
  const counts = mock.counts();
  const countText = recordsText(counts);
  // How the document asks for credentials: its first secured operation.
  const secured = mock.operations.find((op) => op.security.some((alternative) => alternative.length > 0));
  const shownKey = args.apiKeys ? '<API_KEY>' : DEMO_API_KEY;
  const hint = credentialHint(secured, shownKey);
  const keyText = !secured
    ? 'not needed: the document asks for no credentials'
    : args.apiKeys
      ? `${args.apiKeys.length} key(s) from ${input.keysFrom ?? '--api-key'} (not shown)`
      : `${DEMO_API_KEY}  (send ${hint!.text})`;
  const admin = args.noAdmin ? 'off (--no-admin)' : `${url}${ADMIN_PATH} (${args.adminToken ? 'token required' : 'loopback only'})`;
  const otherHosts = input.allowedHosts === 'any' ? [] : input.allowedHosts.filter((h) => !isLoopbackAddress(h));
  const canned = mock.answers.filter((a) => a.from === 'static');
  const chaos = [args.delay && `delay ${args.delay.join('-')} ms`, args.errorRate && `error rate ${args.errorRate}`].filter(Boolean).join(', ');
  const tryLine = tryCommand(input);
  const lines: Array<BannerLine | false | undefined | ''> = [
    line('document', `${input.shown} (served at ${url}${SPEC_PATH})`, { document: input.shown, spec: `${url}${SPEC_PATH}` }),
    !args.noDocs && line('docs', `${url}${DOCS_PATH} (interactive reference; try it out against this mock)`, { docs: `${url}${DOCS_PATH}` }),
    line('API key', keyText, { apiKey: keyText }),
    ...oauthLines(url, mock.oauth),
    line(
      'records',
      `${countText || 'none'} (${input.restored ? 'from the state file' : input.loadedFrom ? `loaded from ${input.loadedFrom}, seeded there by another replica` : `seed ${args.seed ?? DEFAULT_SEED}`})`,
      { records: counts, ...(input.restored ? { from: 'state file' } : input.loadedFrom ? { from: input.loadedFrom } : { seed: args.seed ?? DEFAULT_SEED }) },
    ),
    document.convertedFrom && line('converted', `Swagger ${document.convertedFrom} to OpenAPI 3.0 on load (swagger2openapi)`, { convertedFrom: `Swagger ${document.convertedFrom}` }),
    line('admin', `${admin}; health at ${HEALTH_PATH}`, { admin: args.noAdmin ? null : `${url}${ADMIN_PATH}`, adminAccess: args.noAdmin ? 'off' : args.adminToken ? 'token' : 'loopback', health: `${url}${HEALTH_PATH}` }),
    input.allowedHosts === 'any'
      ? line('hosts', `any Host (bound to ${args.host}; name them with --allowed-host to refuse the others)`, { hosts: 'any' })
      : otherHosts.length > 0 && line('hosts', `localhost, 127.0.0.1, [::1], ${otherHosts.join(', ')}`, { hosts: ['localhost', '127.0.0.1', '[::1]', ...otherHosts] }),
    args.stateFile && line('state', args.stateFile, { stateFile: args.stateFile }),
    args.store && line('state', `PostgreSQL ${maskUrl(args.store)}, namespace ${args.storeNamespace ?? 'default'} (shared by every replica naming it)`, { store: maskUrl(args.store), namespace: args.storeNamespace ?? 'default' }),
    chaos && line('chaos', chaos, { delay: args.delay, errorRate: args.errorRate }),
    args.now && line('clock', `starts at ${args.now.toISOString()}`, { clock: args.now.toISOString() }),
    args.watch && line('watching', `${input.shown} for changes`, { watching: true }),
    canned.length > 0 &&
      line(
        'canned',
        `${canned.length} of ${mock.answers.length} operations answer from examples or generated data, not state (${canned.slice(0, 3).map((a) => a.operation).join(', ')}${canned.length > 3 ? ', ...' : ''}); why: ${url}${ADMIN_PATH}/operations`,
        { canned: canned.map((a) => a.operation) },
      ),
    line('try', tryLine, { try: tryLine }),
  ];
  return { url, operations: mock.operations.length, lines: lines.filter((l): l is BannerLine => Boolean(l)) };
}

/** How many collections the records line names; past that, the rest are counted. */
export const NAMED_COLLECTIONS = 6;

/**
 * The records line: every collection with its count, or, when there are more than
 * NAMED_COLLECTIONS (a large document has hundreds), the first ones and a count of the rest.
 *
 * @example recordsText({ pets: 20, categories: 6 }) // 'pets 20, categories 6'
 * @example recordsText(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`r${i}`, 20])))
 * // 'r0 20, r1 20, r2 20, r3 20, r4 20, r5 20 and 394 more collections, 20 records each'
 */
export function recordsText(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  const named = entries.length > NAMED_COLLECTIONS ? entries.slice(0, NAMED_COLLECTIONS) : entries;
  const text = named.map(([name, n]) => `${name} ${n}`).join(', ');
  const rest = entries.slice(named.length).map(([, n]) => n);
  if (rest.length === 0) return text;
  const number = (n: number) => n.toLocaleString('en-US');
  const more = `${number(rest.length)} more collection${rest.length === 1 ? '' : 's'}`;
  const records = rest.length > 1 && rest.every((n) => n === rest[0])
    ? `${number(rest[0])} record${rest[0] === 1 ? '' : 's'} each`
    : `${number(rest.reduce((sum, n) => sum + n, 0))} records`;
  return `${text} and ${more}, ${records}`;
}

/**
 * Where a front end gets a token: the mock's token and authorization endpoints, and the document's
 * own URLs it answers at too (those on the API's origin), in place of the identity provider the
 * document names (which the mock cannot stand in for), and OpenID Connect's discovery when the
 * document uses it.
 */
function oauthLines(url: string, oauth: Mock['oauth']): BannerLine[] {
  if (!oauth) return [];
  const { declaration, tokenLifetime } = oauth;
  const origin = new URL(url).origin;
  const served = declaration.documentPaths.filter((p) => p.origin === undefined || p.origin === origin);
  const theirs = (type: 'oauth2' | 'openIdConnect') => [...new Set(declaration.schemes.filter((s) => s.type === type).flatMap((s) => s.urls))].filter((u) => !served.some((p) => p.url === u));
  const also = (endpoints: string[]) => {
    const paths = served.filter((p) => endpoints.includes(p.endpoint)).map((p) => p.path);
    return paths.length ? ` (also at the document's ${paths.join(', ')})` : '';
  };
  const instead = (urls: string[]) => (urls.length ? ` in place of the document's ${urls.slice(0, 2).join(', ')}${urls.length > 2 ? ', ...' : ''}` : '');
  const signIn = declaration.grants.has('authorization_code') || declaration.grants.has('implicit');
  const token = `${url}${OAUTH_ENDPOINTS.token}`;
  const authorize = `${url}${OAUTH_ENDPOINTS.authorize}`;
  const lines: BannerLine[] = [
    {
      label: 'oauth',
      text: `token ${token}${signIn ? `, authorize ${OAUTH_ENDPOINTS.authorize}` : ''}${also([OAUTH_ENDPOINTS.token, OAUTH_ENDPOINTS.authorize])}${instead(theirs('oauth2'))}; tokens last ${tokenLifetime} s`,
      fields: { oauth: { token, ...(signIn ? { authorize } : {}), tokenLifetime, replaces: theirs('oauth2'), documentPaths: served.map((p) => p.path) } },
    },
  ];
  if (declaration.openId) {
    const discovery = `${url}${OAUTH_ENDPOINTS.openIdConfiguration}`;
    lines.push({ label: 'openid', text: `${discovery}${also([OAUTH_ENDPOINTS.openIdConfiguration])}${instead(theirs('openIdConnect'))}`, fields: { openid: discovery } });
  }
  return lines;
}

/**
 * A curl command that works on the document: its first list (a GET without path parameters or
 * required ones in the query), else its first GET, else its first POST, PUT or PATCH, with
 * required parameters and a JSON body filled in from the document's examples, or generated from
 * their schemas (checked against them), and the key as that operation asks for it. With no
 * operation at all, the document itself.
 */
export function tryCommand({ url, mock, document, args }: Pick<BannerInput, 'url' | 'mock' | 'document' | 'args'>): string {
  const candidates = mock.operations
    .map((op, index) => ({ op, index, rank: tryRank(op) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ op }) => op);
  if (candidates.length === 0) return `curl ${url}${SPEC_PATH}`;
  const sample = sampler(document, mock.compiled ?? compileDocument(document));
  const key = args.apiKeys ? '<API_KEY>' : DEMO_API_KEY;
  // The first operation whose values can all be found valid (a few tries each); else the first, as well as it goes.
  for (const op of candidates.slice(0, 20)) {
    const command = curlFor(op, { url, api: document.api, mock, key, sample, strict: true });
    if (command) return command;
  }
  return curlFor(candidates[0], { url, api: document.api, mock, key, sample, strict: false })!;
}

/** Lower is tried first: a GET without path or required query parameters, one with them, one with path parameters, a POST, a PUT or PATCH, anything else. */
function tryRank(op: Operation): number {
  if (op.method === 'get') return op.path.includes('{') ? 2 : op.parameters.some((p) => p.required && (p.in === 'query' || p.in === 'header')) ? 1 : 0;
  return op.method === 'post' ? 3 : op.method === 'put' || op.method === 'patch' ? 4 : 5;
}

interface CurlContext {
  url: string;
  api: DocumentObject;
  mock: BannerInput['mock'];
  key: string;
  sample: Sampler;
  /** Give up (undefined) when a value cannot be found valid, rather than show an invalid one. */
  strict: boolean;
}

/** The curl command for one operation, or undefined when (strict) one of its values could not be found valid. */
function curlFor(op: Operation, { url, api, mock, key, sample, strict }: CurlContext): string | undefined {
  const hint = credentialHint(op, key);
  const written: ParameterObject[] = [...(api.paths?.[op.path]?.parameters ?? []), ...(op.source.parameters ?? [])];
  const answer = mock.answers.find((a) => a.operationId === op.id);
  const collection = answer?.collection === undefined ? undefined : mock.collections.find((c) => c.name === answer.collection);
  let invalid = false;
  const value = (where: 'path' | 'query' | 'header', name: string): string => {
    // The key of a record the operation's collection holds, so an item read finds one.
    if (where === 'path' && collection?.keyParam === name && collection.scopeParams.length === 0) {
      const first = mock.store.collection(collection.name).all().next();
      if (!first.done && first.value[collection.keyProperty] !== undefined) return asText(first.value[collection.keyProperty]);
    }
    const spec = op.parameters.find((p) => p.in === where && p.name === name);
    const source = written.find((p) => p?.in === where && p?.name === name);
    const found = sample(spec?.schema ?? {}, name, source?.example ?? firstExample(source?.examples));
    if (!found.valid) invalid = true;
    return asText(found.value);
  };
  const required = op.parameters.filter((p) => p.required);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value('path', name)));
  const query = required.filter((p) => p.in === 'query').map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value('query', p.name))}`);
  if (hint?.curl.query) query.push(hint.curl.query);
  const target = `${url}${serverBasePath(api)}${path}${query.length ? `?${query.join('&')}` : ''}`;
  const parts = ['curl'];
  if (op.method !== 'get') parts.push(`-X ${op.method.toUpperCase()}`);
  if (hint?.curl.header) parts.push(`-H ${quote(hint.curl.header)}`);
  for (const p of required.filter((p) => p.in === 'header')) parts.push(`-H ${quote(`${p.name}: ${value('header', p.name)}`)}`);
  const body = bodyOf(op, sample);
  if (body) {
    if (!body.valid) invalid = true;
    parts.push(`-H ${quote(`Content-Type: ${body.type}`)}`, `-d ${quote(body.text)}`);
  }
  parts.push(/[?&]/.test(target) ? quote(target) : target);
  return strict && invalid ? undefined : parts.join(' ');
}

/** A value for a schema: the example the document gives, as written, or one generated and checked against the schema (a few seeds). */
type Sampler = (schema: SchemaObject, propertyName: string | undefined, given: unknown) => { value: unknown; valid: boolean };

function sampler(document: BannerInput['document'], compiled: CompiledDocument): Sampler {
  const faker = createFaker();
  const generate = createGenerator(faker, { maxDepth: 0, document: document.api });
  // Compiled only when a value has to be generated (the compiled document builds its parts on first use): most documents have a list to try, which needs none.
  const check = (schema: SchemaObject, value: unknown) => compiled.requestValidator(schema)?.(value) ?? true;
  return (schema, propertyName, given) => {
    const example = given ?? schemaExample(schema);
    if (example !== undefined) return { value: example, valid: true };
    let value: unknown;
    for (let seed = 1; seed <= 10; seed++) {
      faker.seed(seed);
      value = generate(schema, { propertyName });
      if (check(schema, value)) return { value, valid: true };
    }
    return { value, valid: false };
  };
}

/** A request body for curl: the first JSON media type's example, or one generated from its schema. */
function bodyOf(op: Operation, sample: Sampler): { type: string; text: string; valid: boolean } | undefined {
  const content = op.requestBody?.content ?? {};
  const type = Object.keys(content).find((t) => isJsonMediaType(t.split(';')[0].trim().toLowerCase()));
  if (!type) return undefined;
  const media = content[type];
  const { value, valid } = sample(media.schema ?? {}, undefined, media.example ?? firstExample(media.examples));
  return { type, text: JSON.stringify(value), valid };
}

function firstExample(examples: unknown): unknown {
  if (!examples || typeof examples !== 'object') return undefined;
  const first = Object.values(examples as Record<string, { value?: unknown }>)[0];
  return first?.value;
}

/** An example a schema gives of itself: `example`, `examples[0]`, `default`, `const` or its first `enum` value. */
function schemaExample(schema: SchemaObject): unknown {
  return schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined) ?? schema.default ?? schema.const ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
}

/** A parameter value as text: an array as `a,b` (the form style), anything else as JSON or its string. */
function asText(value: unknown): string {
  if (Array.isArray(value)) return value.map(asText).join(',');
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A shell word in single quotes. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
