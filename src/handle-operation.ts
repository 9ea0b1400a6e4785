/**
 * The pipeline of one route, compiled once per operation: authenticate, check the sunset,
 * validate, act on state, respond. Errors at any stage go through the operation's error responder.
 */
import { SECURITY_HEADERS, sandboxed } from './core/security-headers.js';
import type { Context } from 'hono';
import type { Action, ActionResult } from './pipeline/exchange.js';
import type { Cors } from './middleware/cors.js';
import type { Chaos } from './scenarios/chaos.js';
import type { compileScenarioResponder } from './scenarios/force-response.js';
import { readScenario, type AppliedScenario, type PreferDirective } from './scenarios/read-scenario.js';
import type { Scenario } from './pipeline/exchange.js';
import type { Registry } from './core/registry.js';
import type { Operation } from './operations/operation.js';
import { ApiError, errors } from './core/api-error.js';
import { deprecationLink, deprecationPolicy } from './respond/deprecation.js';
import type { ErrorResponder } from './respond/error-response.js';
import { acceptsAnything, choose, declaredTypes, representations, takesAny, type Representation } from './respond/negotiate.js';
import { successResponse } from './respond/static-response.js';
import { encoderFor, type BodyEncoder } from './respond/body-encoders.js';
import { findResponse } from './operations/build-operations.js';
import type { ResponseSpec } from './operations/operation.js';
import type { HonoRoute } from './routing/hono-path.js';
import type { HeaderReader, RequestReader } from './pipeline/request-reader.js';
import { clientBaseOf, type ClientBase, type ClientBaseOptions } from './pipeline/client-base.js';
import { SESSION_HEADER } from './state/sessions.js';
import type { StateStore } from './state/state-store.js';
import type { Problem } from './core/problem.js';
import { QueryString } from './core/query-string.js';
import type { compileAuthenticator } from './security/authenticate.js';
import type { compileRequestValidator, ValidRequest } from './validation/validate-request.js';
import { isBytes } from './core/bytes.js';
import { isJsonMediaType } from './core/media-type.js';

/**
 * What the request log says of a request beyond its status: what its scenario did (absent when
 * nothing applied) and the validation problems of a refusal. Filled as the stages run, handed to
 * `record` with the answer.
 */
export interface RequestTrace {
  scenario?: AppliedScenario;
  problems?: Problem[];
  /** How the answer was fitted to the operation's declarations (a status or media type other than the mock's own), one sentence each. */
  fitted?: string[];
  /** The answer is knowingly not declared: no declared status or media type could say it (see src/respond/error-response.ts). */
  undeclared?: boolean;
  /** With the self-check on, what the answer breaks in the document (none: absent). */
  selfCheck?: Problem[];
}

/** Notes a way the answer was fitted to the declarations. */
function fitted(trace: RequestTrace, message: string, undeclared: boolean): void {
  (trace.fitted ??= []).push(message);
  if (undeclared) trace.undeclared = true;
}

/** The scenario record of a request, made on first use. */
function applied(trace: RequestTrace): AppliedScenario {
  return (trace.scenario ??= {});
}

/** Whether a request asked for any directive (`readScenario` answers `{}` when none). */
function asksAnything(scenario: Scenario): boolean {
  for (const _ in scenario) return true;
  return false;
}

export interface OperationParts {
  operation: Operation;
  readParams: HonoRoute['params'];
  /** The store of the request's session (X-Mock-Session), or a 400 for an invalid session name. */
  storeFor: (session: string | null) => StateStore | ApiError;
  authenticate: ReturnType<typeof compileAuthenticator>;
  /** The `Prefer` directives a request may use (see src/scenarios/read-scenario.ts). */
  preferDirectives: Registry<PreferDirective>;
  validate: ReturnType<typeof compileRequestValidator>;
  action: Action;
  respondError: ErrorResponder;
  /** Encoders of bodies that are not JSON: a record answered as `text/csv` where that is what `Accept` asks and a plugin writes it. */
  encoders: Registry<BodyEncoder>;
  /** The self-check (`selfCheck: true`): the answer's problems against the document, checked before it leaves; `undeclared` when the pipeline knows it is not declared. */
  verify?: (response: Response, undeclared: boolean) => Promise<Problem[]>;
  /** The clock in milliseconds (for the sunset). */
  now: () => number;
  maxBodyBytes: number;
  /** How the request's headers and body are read (src/pipeline/request-reader.ts). */
  reader: RequestReader;
  /** How the URL the client used is read (the document's base path, whether a proxy's `X-Forwarded-*` are trusted): the mock's URLs follow it. Default: no base path, no proxy. */
  clientBase?: ClientBaseOptions;
  /** The response a request's scenario forces, if any (see src/scenarios). */
  force: ReturnType<typeof compileScenarioResponder>;
  chaos: Chaos;
  /** CORS headers for a request's Origin. */
  cors: Cors['headers'];
  /** Headers telling a client about its session (re-created after it was evicted), once. */
  sessionNotice?: (store: StateStore) => Record<string, string> | undefined;
  /** Consulted before a write acts on the shared state: an error refuses it (the state file cannot be saved: 503). */
  writable?: () => ApiError | undefined;
  /** Records the answer (request log, state-file notification), with what the request's trace says. */
  record: (c: Context, status: number, started: number, header: HeaderReader, trace: RequestTrace) => void;
}

export function handleOperation(parts: OperationParts) {
  const { operation, readParams, storeFor, authenticate, preferDirectives, validate, action, respondError, now, maxBodyBytes, reader, force, chaos, cors, record, sessionNotice, writable, encoders, verify, clientBase = { basePath: '' } } = parts;
  // What the request may do to the state: a GET or HEAD reads it (TransactIntent).
  const intent = { writes: operation.method !== 'get' && operation.method !== 'head' };
  const gated = writable && intent.writes ? writable : undefined;
  const policy = deprecationPolicy(operation, clientBase.basePath);
  const docsPath = policy?.docsPath;
  /** Headers every answer of this operation carries: the deprecation ones, if any. */
  const baseHeaders = policy?.headers ?? {};
  const sunset = policy?.sunset;
  const gone = sunset && sunsetError(operation, sunset);
  const sunsetMs = sunset?.getTime() ?? Infinity;
  /** The headers of JSON answers without CORS: built once, shared by those without headers of their own. */
  const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({ ...SECURITY_HEADERS, ...baseHeaders, 'Content-Type': 'application/json' });
  const canWrite = (essence: string) => encoderFor(encoders, essence) !== undefined;

  // Accept: the success response's media types, checked before the action (a 406 changes nothing).
  const primary = successResponse(operation);
  const primaryChoices = primary ? representations(primary, canWrite) : [];
  const notAcceptable = findResponse(operation, 406) !== undefined;
  /** The media types each status's response can be written in, the mock's preferred first; made on first use. */
  const byStatus = new Map<number, { response?: ResponseSpec; choices: Representation[] }>();
  const declaredFor = (status: number) => {
    let found = byStatus.get(status);
    if (!found) {
      const response = findResponse(operation, status);
      byStatus.set(status, (found = { response, choices: response ? representations(response, canWrite) : [] }));
    }
    return found;
  };

  /** The answer to an action's result: a JSON value in the declared media type `Accept` chooses (`application/json` on the fast path), the rest as the action wrote it. */
  const toResponse = (result: ActionResult, extra: Record<string, string>, accept: string | null | undefined, trace: RequestTrace): Response => {
    if (result.json !== undefined || isJsonValue(result.body)) {
      if (result.headers?.['Content-Type'] === undefined) {
        const { response, choices } = declaredFor(result.status);
        const first = choices[0];
        if (first === undefined) {
          if (response && Object.keys(response.content).length > 0) fitted(trace, `${result.status}: the mock writes none of the media types it is declared in (${declaredTypes(response.content)}); answered application/json.`, true);
        } else if (!(acceptsAnything(accept) || (accept === 'application/json' && first.essence === 'application/json')) || first.type !== 'application/json') {
          const chosen = choose(choices, accept)!;
          if (!chosen.fits && response !== primary) fitted(trace, `Accept ${accept} takes none of the media types declared for ${result.status} (${declaredTypes(response!.content)}); answered ${chosen.type}, the first of them.`, false);
          if (chosen.type !== 'application/json') return buildResponse(encoded(result, chosen), extra);
        }
      }
      if (extra === baseHeaders) {
        // An action's own Content-Type may not be JSON (a forced example sent as HTML).
        const headers = result.headers ? sandboxed({ ...jsonHeaders, ...result.headers }) : jsonHeaders;
        return new Response(result.json ?? JSON.stringify(result.body), { status: result.status, headers });
      }
    }
    return buildResponse(result, extra);
  };
  /** A JSON value as a declared media type other than `application/json`: JSON text for a JSON one, else its encoder's output. */
  const encoded = (result: ActionResult, as: Representation): ActionResult => {
    const headers = { ...result.headers, 'Content-Type': as.type };
    if (isJsonMediaType(as.essence)) return { ...result, headers };
    return { status: result.status, headers, body: encoderFor(encoders, as.essence)!(result.body ?? (result.json === undefined ? undefined : JSON.parse(result.json)), as.type) };
  };

  /** An error answered as the operation declares it, for the request's Accept; how it was fitted goes in the trace. */
  const fail = (error: ApiError, headers: Record<string, string>, accept: string | null | undefined, trace: RequestTrace, client: () => ClientBase): Response =>
    respondError(error, headers, { accept, fitted: (message, undeclared) => fitted(trace, message, undeclared), client });

  /** The stages up to validation; synchronous unless the operation reads a body. */
  const answer = (c: Context, trace: RequestTrace, url: string, pathStart: number, query: QueryString, scenario: Scenario | ApiError, header: HeaderReader, extra: Record<string, string>, client: () => ClientBase, done: Done): Response | Promise<Response> => {
    const accept = header('accept');
    const denied = authenticate?.({ header, query });
    if (denied) return fail(denied, extra, accept, trace, client);
    if (gone && now() >= sunsetMs) return fail(gone, extra, accept, trace, client);
    if (scenario instanceof ApiError) {
      applied(trace).invalid = scenario.message;
      return fail(scenario, extra, accept, trace, client);
    }
    const fault = chaos.fault(operation);
    if (fault) {
      applied(trace).fault = fault.status;
      return fail(fault, extra, accept, trace, client);
    }
    const forced = force(scenario, accept);
    if (forced instanceof ApiError) {
      applied(trace).outcome = forced.code === 'SCENARIO_NOT_DECLARED' ? 'undeclared' : 'forced';
      return fail(forced, extra, accept, trace, client);
    }
    if (forced) {
      applied(trace).outcome = 'forced';
      return toResponse(forced, extra, accept, trace);
    }
    const body = () => reader.body(c, maxBodyBytes);
    const validated = validate({ path: readParams((name) => c.req.param(name)), query, header, body });
    if (validated instanceof Promise) return validated.then((request) => settle(act(trace, url.slice(pathStart), request, scenario, header, extra, accept, client), done));
    const acted = act(trace, url.slice(pathStart), validated, scenario, header, extra, accept, client);
    return acted instanceof Promise ? acted.then(done) : acted;
  };

  /** Acts on the state with a validated request, inside the store's transaction (a promise only for a store that needs one). */
  const act = (trace: RequestTrace, path: string, request: ValidRequest | ApiError, scenario: Scenario, header: HeaderReader, extra: Record<string, string>, accept: string | null | undefined, client: () => ClientBase): Response | Promise<Response> => {
    if (request instanceof ApiError) {
      if (request.details) trace.problems = request.details;
      return fail(request, extra, accept, trace, client);
    }
    // What the success answer is sent as: a 406 before anything changes where Accept takes none of it and 406 is declared.
    let respondAs: string | undefined;
    if (!acceptsAnything(accept) && primaryChoices.length > 0) {
      const chosen = choose(primaryChoices, accept)!;
      if (!chosen.fits) {
        if (notAcceptable) return fail(errors.notAcceptable(accept!, Object.keys(primary!.content)), extra, accept, trace, client);
        fitted(trace, `Accept ${accept} takes none of the media types declared for ${primary!.status} (${declaredTypes(primary!.content)}), and ${operation.method.toUpperCase()} ${operation.path} declares no 406; answered ${chosen.type}, the first of them.`, false);
      }
      respondAs = chosen.key;
    } else if (notAcceptable && primary && primaryChoices.length === 0 && !takesAny(primary.content, accept)) {
      // Declared only in media types the mock does not write (an image): Accept still decides the 406.
      return fail(errors.notAcceptable(accept!, Object.keys(primary.content)), extra, accept, trace, client);
    }
    const session = header(SESSION_HEADER) ?? null;
    const store = storeFor(session);
    if (store instanceof ApiError) return fail(store, extra, accept, trace, client);
    const refused = gated && session === null ? gated() : undefined; // sessions are not saved: never refused
    if (refused) return fail(refused, extra, accept, trace, client);
    const notice = sessionNotice?.(store);
    if (notice) extra = { ...extra, ...notice };
    const finish = (result: ActionResult | ApiError) => (result instanceof ApiError ? fail(result, extra, accept, trace, client) : toResponse(result, extra, accept, trace));
    const result = store.transact(() => action({ store, params: request.params, body: request.body, mediaType: request.mediaType, url: path, client, scenario, respondAs }), intent);
    // A store that cannot serve now (its database lost) refuses with an ApiError: the document's error shape.
    return result instanceof Promise ? result.then(finish, (error) => (error instanceof ApiError ? fail(error, extra, accept, trace, client) : Promise.reject(error))) : finish(result);
  };

  // Synchronous when nothing waits (no body to read, no delay): Hono and @hono/node-server then
  // pass the Response straight through, without a promise chain or a close listener per request.
  return (c: Context): Response | Promise<Response> => {
    const started = performance.now();
    const url = c.req.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const queryStart = url.indexOf('?', pathStart);
    // Parsed once, on first use, by whichever stage needs it first.
    const query = queryStart < 0 ? QueryString.EMPTY : new QueryString(url.slice(queryStart + 1));
    const header = reader.headers(c);
    const scenario = readScenario(header('prefer') ?? null, query, preferDirectives);
    const trace: RequestTrace = {};
    if (!(scenario instanceof ApiError) && asksAnything(scenario)) trace.scenario = { asked: scenario };
    const allowed = cors(header('origin'));
    // The delay is drawn after the fault (in `answer`), so a seed replays the same sequence.
    let wait = 0;
    const done: Done = (response) => {
      const recorded = () => {
        record(c, response.status, started, header, trace);
        return response;
      };
      // With the self-check on, the answer is checked against the document before it leaves.
      const finish = verify
        ? () =>
            verify(response, trace.undeclared === true).then((problems) => {
              if (problems.length) trace.selfCheck = problems;
              return recorded();
            })
        : recorded;
      if (wait === 0) return finish();
      applied(trace).delay = { ms: wait, from: scenario instanceof ApiError || !scenario.delay ? 'server' : 'prefer' };
      return new Promise((resolve) => setTimeout(() => resolve(finish()), wait));
    };
    // Where the client reached the mock, read when a URL is first written.
    let base: ClientBase | undefined;
    const client = () => (base ??= clientBaseOf(c, header, clientBase));
    let extra = allowed ? { ...baseHeaders, ...allowed } : baseHeaders;
    // Docs at a relative URL are the mock's: linked where the client reached it.
    if (docsPath !== undefined) extra = { ...extra, Link: deprecationLink(client().path(docsPath), sunset) };
    const answered = answer(c, trace, url, pathStart, query, scenario, header, extra, client, done);
    wait = chaos.delayMs(scenario instanceof ApiError ? undefined : scenario.delay);
    // An answer still reading its body calls `done` itself when it is ready (one promise step less).
    return answered instanceof Promise ? answered : done(answered);
  };
}

/** Records an answer (after the chaos delay, if any) and passes it on. */
type Done = (response: Response) => Response | Promise<Response>;

function settle(response: Response | Promise<Response>, done: Done): Response | Promise<Response> {
  return response instanceof Promise ? response.then(done) : done(response);
}


/** A body sent as JSON: anything but nothing, bytes or text. */
function isJsonValue(body: unknown): boolean {
  return body !== undefined && typeof body !== 'string' && !isBytes(body);
}

function buildResponse(result: ActionResult, extra: Record<string, string>): Response {
  // One headers object per response.
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...extra, ...result.headers };
  if (result.body === undefined) return new Response(null, { status: result.status, headers });
  if (isBytes(result.body)) return new Response(result.body as Uint8Array<ArrayBuffer>, { status: result.status, headers: sandboxed(headers) });
  if (typeof result.body === 'string' && !/json/.test(headers['Content-Type'] ?? 'json')) return new Response(result.body, { status: result.status, headers: sandboxed(headers) });
  headers['Content-Type'] ??= 'application/json';
  return new Response(result.json ?? JSON.stringify(result.body), { status: result.status, headers: sandboxed(headers) });
}

function sunsetError(operation: Operation, sunset: Date): ApiError {
  const docs = operation.source.externalDocs?.url;
  const day = sunset.toISOString().slice(0, 10);
  return new ApiError(410, 'SUNSET', `${operation.method.toUpperCase()} ${operation.path} was sunset on ${day}${docs ? `; see ${docs}` : ''}.`);
}
