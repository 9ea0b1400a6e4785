/**
 * The validating proxy, assembled: every request is forwarded to the upstream (the real server)
 * and its answer passed back, and each exchange is judged by the document (inspect.ts). The
 * mock's own endpoints (`/__admin`, `/__health`, `/__spec`, `/__docs`) stay the mock's, under the
 * same guards, with `GET /__admin/violations` added. With `errors`, a request that breaks the
 * document gets the document's error without being forwarded, and an answer that breaks it says
 * so in `X-Proxy-Violations`. With `fallback: 'mock'`, an operation the upstream does not
 * implement is answered by the stateful mock; `mock` names operations it always answers.
 *
 * @example
 * const proxy = buildProxy(document, { upstream: 'http://127.0.0.1:3000', fallback: 'mock' });
 * await proxy.fetch(new Request('http://127.0.0.1:4010/pets/1'));
 */
import { Hono, type Context } from 'hono';
import { ApiError, errorResponse, errors } from '../core/api-error.js';
import { fromUtf8 } from '../core/bytes.js';
import { isJsonMediaType, parseMediaType } from '../core/media-type.js';
import { respondJson } from '../core/security-headers.js';
import type { LoadedDocument } from '../openapi/document/load-document.js';
import type { Operation } from '../openapi/operations/operation.js';
import { templateFinder } from '../openapi/operations/path-template.js';
import { WEB_REQUESTS, type RequestReader } from '../mock/pipeline/request-reader.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { guardHosts } from '../mock/middleware/host-guard.js';
import type { AdminEndpoint } from '../mock/admin/admin-api.js';
import { buildMock, maxBodyBytesOf, type BuildMockOptions, type Mock } from '../mock/app.js';
import { checkRegistry } from '../contract/checks/index.js';
import type { LoadedPlugin } from '../contract/plugin.js';
import type { MockPlugin } from '../mock/registries/extension.js';
import { fetchForwarder, forwardedHeaders, parseUpstream, poolForwarder, type UpstreamFetch, type UpstreamAnswer, type UpstreamFailure } from './forward.js';
import { loopGuard } from './loop-guard.js';
import { createInspector, type AnsweredBy, type ProxyCheckId, type SeenAnswer, type SeenRequest, type Violation } from './inspect.js';
import type { ExchangeMask } from './exchange-mask.js';
import type { Problem } from '../core/problem.js';
import { ViolationLog } from './violations.js';
import { compileDocument, type CompiledDocument } from '../openapi/validation/compiled-document.js';
import { violationsMark } from './violations-header.js';

/** The header that names what an answer breaks, with `errors`. */
export const VIOLATIONS_HEADER = 'X-Proxy-Violations';

/** The paths of the mock's own endpoints: never forwarded. */
const OWN_PATHS = /^\/__(admin|health|spec|docs|oauth)(\/|\.|$)/;

/** The largest answer body read to be checked, by default. */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Statuses with which a server says it has no such route or method, rather than no such record. */
const NOT_IMPLEMENTED = new Set([404, 405, 501]);

export interface ProxyOptions {
  /** The document compiled once (src/openapi/validation/compiled-document.ts), shared by the mock, the inspector and a recorder; default: one compiled here. */
  compiled?: CompiledDocument;
  /** The real server's base URL; a request's path and query are appended to it. */
  upstream: string;
  /** How requests reach the upstream (default: the global fetch). Any fetch-able server fits: `(url, init) => app.request(url, init)`. */
  fetch?: UpstreamFetch;
  /** Answer a request that breaks the document with its error instead of forwarding it, and name what an answer breaks in X-Proxy-Violations. */
  errors?: boolean;
  /** `mock`: an operation the upstream does not implement (404, 405 or 501 that is not the operation's own answer, or no answer at all) is answered by the mock. */
  fallback?: 'mock';
  /** Operations (by operationId) the mock answers, never forwarded. */
  mockOperations?: readonly string[];
  /** From sending a request to the end of the answer's body read for checking, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** The largest answer body read to be checked (default 4 MiB); a larger one streams through unchecked, and the log says so. */
  maxAnswerBytes?: number;
  /** How the mock behind the own endpoints and the fallback is built (API keys, seed, admin token, docs, plugins...). */
  mock?: BuildMockOptions;
  /** The plugins whose contract checks judge the traffic too (their response rules: the Petstore's error status, say); default none. */
  contractPlugins?: readonly LoadedPlugin[];
  /** The violations kept for GET /__admin/violations (default 1,000; all are counted). */
  keep?: number;
  /** Told of each exchange: who answered, and what it broke. */
  onExchange?: (entry: ProxyExchange) => void;
  /** Told of each upstream answer with a JSON body (the recorder of fixtures listens here), with the exchange's secrets to mask. */
  onAnswer?: (answer: { operation: Operation; params: Record<string, string>; status: number; json: unknown; mask: ExchangeMask }) => void;
  /** The clock of the violations' times (default: now). */
  now?: () => Date;
}

/** One exchange through the proxy, for the log line. */
export interface ProxyExchange {
  time: Date;
  method: string;
  /** The path and query as sent, the exchange's secrets `***` (exchange-mask.ts). */
  path: string;
  status: number;
  ms: number;
  answeredBy: AnsweredBy;
  operationId?: string;
  violations: Violation[];
  /** Why the mock answered, or why the body was not checked. */
  note?: string;
}

export interface Proxy {
  fetch: (request: Request, env?: unknown) => Promise<Response>;
  /** Closes the connections kept open to the upstream. */
  close: () => Promise<void>;
  /** The mock behind the own endpoints and the fallback. */
  mock: Mock;
  violations: ViolationLog;
  operations: Operation[];
  /** The checks that judge traffic, in report order. */
  checks: ProxyCheckId[];
  /** The compiled document the mock and the inspector share. */
  compiled: CompiledDocument;
}

export function buildProxy(document: LoadedDocument, options: ProxyOptions): Proxy {
  const upstream = parseUpstream(options.upstream);
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const limits = { timeoutMs, maxBodyBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES };
  const forwarder = options.fetch ? fetchForwarder(options.fetch, upstream, limits) : poolForwarder(upstream, limits);
  const violations = new ViolationLog(options.keep);
  const mockOptions = options.mock ?? {};
  const plugins = [...(mockOptions.plugins ?? []), UPSTREAM_CREDENTIALS];
  const base = mockOptions.requestReader ?? WEB_REQUESTS;
  // The body a request carried, read once by the proxy: the mock reads the same bytes when it answers.
  const bodies = new WeakMap<Request, Uint8Array | undefined>();
  const reader: RequestReader = {
    headers: base.headers,
    remoteAddress: base.remoteAddress,
    body: (c, maxBytes) => (bodies.has(c.req.raw) ? Promise.resolve(capped(bodies.get(c.req.raw), maxBytes)) : base.body(c, maxBytes)),
  };
  // One compiled document for the mock, the inspector (and the recorder the caller gives it to).
  const compiled = options.compiled ?? mockOptions.compiled ?? compileDocument(document);
  const mock = buildMock(document, { ...mockOptions, compiled, plugins, requestReader: reader, adminEndpoints: [...(mockOptions.adminEndpoints ?? []), violationsEndpoint(violations)] });
  const { operations } = compiled;
  const basePath = serverBasePath(document.api);
  const findPath = templateFinder([...new Set(operations.map((op) => op.path))], basePath, (path) => path);
  const byRoute = new Map(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  const maxBodyBytes = maxBodyBytesOf(document.api);
  const checks = checkRegistry(options.contractPlugins ?? []);
  const inspector = createInspector({ document, checks, upstreamUrl: `${upstream.origin}${upstream.basePath}`, maxBodyBytes, compiled });
  const mockAnswers = new Set(options.mockOperations ?? []);
  const unknownIds = [...mockAnswers].filter((id) => !operations.some((op) => op.id === id));
  if (unknownIds.length) throw new Error(`--mock ${unknownIds.join(', ')}: the document has no such operation (its operations: ${operations.map((op) => op.id).join(', ')}).`);

  const record = (found: Omit<Violation, 'id' | 'time'>[]) => found.map((v) => violations.add(v, now()));
  // Its own hop in Via: a request that comes back with it is not forwarded again.
  const loop = loopGuard();

  const app = new Hono();
  app.all('*', async (c) => {
    const started = performance.now();
    const url = new URL(c.req.url);
    if (OWN_PATHS.test(url.pathname)) return mock.app.fetch(c.req.raw, c.env);
    const method = c.req.method.toUpperCase();
    const target = `${url.pathname}${url.search}`;
    const found = findPath(url.pathname);
    const operation = found && byRoute.get(`${method} ${found.item}`);
    const header = base.headers(c);
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => (headers[name] = value));
    const done = (response: Response, answeredBy: AnsweredBy, seen: Violation[], note?: string) => {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      if (options.onExchange) options.onExchange({ time: now(), method, path: inspector.mask({ method, target, headers }).target(target), status: response.status, ms, answeredBy, operationId: operation?.id, violations: seen, note });
      return response;
    };

    const body = await base.body(c, maxBodyBytes);
    const declaredLength = Number(header('content-length') ?? 0);
    if (body === undefined && declaredLength !== 0) {
      const error = errors.payloadTooLarge(maxBodyBytes);
      return done(operation ? inspector.error(operation, error, header('accept') ?? null) : errorResponse(error), 'proxy', [], `the body is over ${maxBodyBytes} bytes`);
    }
    if (loop.cameBack(header('via'))) {
      const error = new ApiError(508, 'LOOP_DETECTED', `The request came back through this proxy: its upstream, ${upstream.origin}${upstream.basePath}, leads back to it. Give the real server's URL as --upstream.`);
      return done(operation ? inspector.error(operation, error, header('accept') ?? null) : errorResponse(error), 'proxy', [], 'the request came back through this proxy: not forwarded again');
    }
    bodies.set(c.req.raw, body);
    const seen: SeenRequest = { method, target, headers, body: body?.byteLength ? body : undefined };
    violations.exchange(operation?.id);

    if (!operation) {
      const where = found ? `${found.item} declares ${operations.filter((op) => op.path === found.item).map((op) => op.method.toUpperCase()).join(', ')}, not ${method}` : `no path of the document matches ${url.pathname}`;
      const answer = await forwardTo(c, url, seen, undefined);
      if ('failure' in answer) return done(errorResponse(noAnswer(answer)), 'proxy', [], answer.message);
      const seenViolations = record([inspector.undocumented(seen, answerSeen(answer), 'upstream', where)]);
      return done(respondWith(answer, seenViolations), 'upstream', seenViolations);
    }

    const problems = await inspector.judge(operation, found!.params, seen);
    const requestViolations = problems.length ? record([inspector.invalidRequest(operation, seen, problems, options.errors ? 'proxy' : 'upstream')]) : [];
    if (problems.length && options.errors) {
      const response = inspector.error(operation, errors.validation(problems), header('accept') ?? null);
      return done(marked(response, requestViolations, problems), 'proxy', requestViolations, 'refused before forwarding (--errors)');
    }
    if (mockAnswers.has(operation.id)) return done(await mock.app.fetch(c.req.raw, c.env), 'mock', requestViolations, '--mock');

    const answer = await forwardTo(c, url, seen, operation);
    if ('failure' in answer) {
      if (options.fallback === 'mock') return done(await mock.app.fetch(c.req.raw, c.env), 'mock', requestViolations, `the fallback: ${answer.message}`);
      return done(inspector.error(operation, noAnswer(answer), header('accept') ?? null), 'proxy', requestViolations, answer.message);
    }
    const received = answerSeen(answer);
    const answerViolations = inspector.check(operation, seen, problems, received, 'upstream');
    if (options.fallback === 'mock' && notImplemented(answer, answerViolations)) {
      await answer.stream?.cancel();
      return done(await mock.app.fetch(c.req.raw, c.env), 'mock', requestViolations, `the fallback: the upstream answered ${answer.status}, not the operation's own answer`);
    }
    const all = [...requestViolations, ...record(answerViolations)];
    if (received.text !== undefined && answer.status < 300 && options.onAnswer) {
      // What listens (the recorder) failing is said, and the client still gets its answer.
      try {
        options.onAnswer({ operation, params: found!.params, status: answer.status, json: received.json, mask: inspector.mask(seen, received) });
      } catch (error) {
        mockOptions.onWarning?.(`The answer to ${method} ${operation.path} could not be handed on to be recorded: ${(error as Error).message}`);
      }
    }
    return done(respondWith(answer, options.errors ? all : [], problems), 'upstream', all, answer.unread && `body not checked: ${answer.unread}`);
  });

  /** Sends a request on, and reads the answer within the limits: a JSON body of an operation of the document to be checked; others stream through. */
  const forwardTo = (c: Context, url: URL, seen: SeenRequest, operation: Operation | undefined) => {
    const headers = forwardedHeaders(seen.headers, { address: base.remoteAddress(c), host: url.host, proto: url.protocol.slice(0, -1) }, mockOptions.trustProxy === true);
    headers.via = loop.via(seen.headers.via);
    return forwarder.send({ method: seen.method, pathAndQuery: seen.target, headers, body: seen.body }, (contentType) => operation !== undefined && isJson(contentType));
  };

  // A failure of the proxy's own is answered in the error shape of the operation asked for (else the native one), never as Hono's bare text.
  app.onError((error, c) => {
    mockOptions.onWarning?.(`Unexpected failure while proxying a request: ${(error as Error)?.message ?? String(error)}`);
    const failed = new ApiError(500, 'INTERNAL_ERROR', 'The proxy failed to answer this request; it is still running.');
    const url = new URL(c.req.url);
    const found = findPath(url.pathname);
    const operation = found && byRoute.get(`${c.req.method.toUpperCase()} ${found.item}`);
    try {
      if (operation) return inspector.error(operation, failed, c.req.header('accept') ?? null);
    } catch {
      // The native shape, below.
    }
    return errorResponse(failed);
  });

  guardHosts(app, mockOptions.allowedHosts);
  return { fetch: (request, env) => Promise.resolve(app.fetch(request, env)), close: () => forwarder.close(), mock, violations, operations, checks: inspector.checkIds, compiled };
}

/** The error of an exchange the upstream gave no answer to pass on: 504 when too slow, else 502. */
function noAnswer(failure: UpstreamFailure): ApiError {
  if (failure.failure === 'timeout') return new ApiError(504, 'GATEWAY_TIMEOUT', `The proxy got no answer: ${failure.message}.`);
  return new ApiError(502, 'BAD_GATEWAY', `The proxy got no answer${failure.failure === 'unsendable' ? ' it can pass on' : ''}: ${failure.message}.`);
}

/**
 * An answer that says the upstream has no such route or method (404, 405, 501) rather than no such
 * record: the operation does not declare that status, or the answer breaks what it declares for it.
 */
function notImplemented(answer: UpstreamAnswer, found: Omit<Violation, 'id' | 'time'>[]): boolean {
  return NOT_IMPLEMENTED.has(answer.status) && (answer.status === 501 || found.some((v) => v.check === 'status_code_conformance' || v.check === 'error_shape' || v.check === 'content_type_conformance'));
}

/** What the upstream answered, its body read as text and parsed as JSON once (the checks and the recorder read it). */
function answerSeen(answer: UpstreamAnswer): SeenAnswer {
  const text = answer.bytes ? fromUtf8(answer.bytes) : answer.stream ? undefined : '';
  return { status: answer.status, headers: answer.headers, text, json: parseJson(text), ms: answer.ms };
}

/** The upstream's answer as the client gets it, with the violations named when asked. */
function respondWith(answer: UpstreamAnswer, seen: Violation[], problems: Problem[] = []): Response {
  const bodyless = answer.status === 204 || answer.status === 304 || (answer.status >= 100 && answer.status < 200);
  const body = bodyless ? null : (answer.bytes as Uint8Array<ArrayBuffer> | undefined) ?? answer.stream ?? null;
  return marked(new Response(body, { status: answer.status, headers: answer.headers }), seen, problems);
}

function marked(response: Response, seen: Violation[], problems: Problem[] = []): Response {
  const mark = violationsMark(seen, problems);
  if (mark === undefined) return response;
  const headers = new Headers(response.headers);
  headers.set(VIOLATIONS_HEADER, mark);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A JSON answer (or one that says nothing of its media type) is read to be checked. */
function isJson(contentType: string | null): boolean {
  const essence = parseMediaType(contentType)?.essence;
  return essence === undefined || essence === '' || isJsonMediaType(essence);
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined || text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function capped(bytes: Uint8Array | undefined, maxBytes: number): Uint8Array | undefined {
  if (bytes === undefined) return new Uint8Array(0);
  return bytes.byteLength > maxBytes ? undefined : bytes;
}

/** GET /__admin/violations: the latest violations, newest first, and the counts. */
function violationsEndpoint(log: ViolationLog): AdminEndpoint {
  return {
    method: 'GET',
    path: '/violations',
    description: 'what the traffic through the proxy broke in the document, newest first (?limit=1 to 1000, default 100; ?check= one check), with the counts',
    handle: (c) => {
      const limit = Number(c.req.query('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return errorResponse(new ApiError(400, 'VALIDATION_FAILED', 'query.limit must be an integer from 1 to 1000'));
      return respondJson({ counts: log.counts(), violations: log.latest(limit, c.req.query('check')) }, 200);
    },
  };
}

/**
 * The mock fills in for the upstream, whose clients hold the upstream's credentials: any credential
 * of the kind a scheme asks for is taken (the upstream is the one to judge it). A missing one is
 * still refused, as the upstream would.
 */
const UPSTREAM_CREDENTIALS: MockPlugin = {
  name: 'upstream credentials',
  mock: (parts) => {
    for (const kind of ['apiKey', 'http:bearer', 'http:basic', 'oauth2', 'openIdConnect']) {
      const check = parts.securitySchemes.get(kind);
      if (!check) continue;
      parts.securitySchemes.register(kind, {
        ...check,
        check: (scheme, credentials, keys, scopes) => {
          const outcome = check.check(scheme, credentials, keys, scopes);
          return outcome === 'unknown' || outcome === 'expired' || outcome === 'insufficient-scope' ? 'ok' : outcome;
        },
      });
    }
    return true;
  },
};

