/**
 * The pipeline of one route, compiled once per operation: a visible list of stages (CORS and
 * deprecation headers, authenticate, sunset, scenario, fault, force, validate, negotiate, session,
 * act; one factory each in src/mock/pipeline/stages/), run for each request until one answers; then the
 * answer waits out the chaos delay, passes the self-check and is recorded. `stagesOf` names the
 * list of an operation. Errors at any stage go through the operation's error responder.
 */
import type { Context } from 'hono';
import type { Action } from './pipeline/exchange.js';
import type { Cors } from './middleware/cors.js';
import type { Chaos } from './scenarios/chaos.js';
import type { compileScenarioResponder } from './scenarios/force-response.js';
import { readScenario, type PreferDirective } from './scenarios/read-scenario.js';
import type { Scenario } from './pipeline/exchange.js';
import type { Registry } from '../core/registry.js';
import type { Operation } from '../openapi/operations/operation.js';
import { ApiError } from '../core/api-error.js';
import { deprecationPolicy } from './respond/deprecation.js';
import type { ErrorResponder } from './respond/error-response.js';
import type { BodyEncoder } from './respond/body-encoders.js';
import type { HonoRoute } from './routing/hono-path.js';
import type { HeaderReader, RequestReader } from './pipeline/request-reader.js';
import { clientBaseOf, type ClientBase, type ClientBaseOptions } from './pipeline/client-base.js';
import type { StateStore } from '../state/state-store.js';
import type { Problem } from '../core/problem.js';
import { QueryString } from '../core/query-string.js';
import type { compileAuthenticator } from './security/authenticate.js';
import type { compileRequestValidator } from '../openapi/validation/validate-request.js';
import { act } from './pipeline/stages/act.js';
import { authenticate } from './pipeline/stages/authenticate.js';
import { cors } from './pipeline/stages/cors.js';
import { deprecation } from './pipeline/stages/deprecation.js';
import { failWith } from './pipeline/stages/fail.js';
import { fault } from './pipeline/stages/fault.js';
import { force } from './pipeline/stages/force.js';
import { negotiate } from './pipeline/stages/negotiate.js';
import { compileRespond } from './pipeline/stages/respond.js';
import { scenario as scenarioStage } from './pipeline/stages/scenario.js';
import { session } from './pipeline/stages/session.js';
import { runStages, type Ongoing, type Stage } from './pipeline/stages/stage.js';
import { sunset as sunsetStage } from './pipeline/stages/sunset.js';
import { applied, type RequestTrace } from './pipeline/stages/trace.js';
import { validate } from './pipeline/stages/validate.js';

export type { RequestTrace } from './pipeline/stages/trace.js';

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
  /** The `Prefer` directives a request may use (see src/mock/scenarios/read-scenario.ts). */
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
  /** How the request's headers and body are read (src/mock/pipeline/request-reader.ts). */
  reader: RequestReader;
  /** How the URL the client used is read (the document's base path, whether a proxy's `X-Forwarded-*` are trusted): the mock's URLs follow it. Default: no base path, no proxy. */
  clientBase?: ClientBaseOptions;
  /** The response a request's scenario forces, if any (see src/mock/scenarios). */
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


/**
 * The stages of one operation, in the order they run: those that cannot act for it are left out
 * (no `authenticate` for an open operation, no `sunset` without one, no `negotiate` where `Accept`
 * cannot change the answer). Built once per operation.
 */
export function operationStages(parts: OperationParts): Stage[] {
  return compileStages(parts).stages;
}

/** The names of an operation's stages, in order: `['cors', 'scenario', 'fault', 'force', 'validate', 'negotiate', 'session', 'act']` for an open GET that answers JSON. */
export function stagesOf(parts: OperationParts): string[] {
  return operationStages(parts).map((stage) => stage.name);
}

/** The stages, and the headers every answer of the operation carries (the deprecation ones, if any): the object a request starts from, which the responder knows by identity. */
function compileStages(parts: OperationParts): { stages: Stage[]; baseHeaders: Record<string, string> } {
  const { operation, chaos, respondError, encoders, action, writable, clientBase = { basePath: '' } } = parts;
  const writes = operation.method !== 'get' && operation.method !== 'head';
  const policy = deprecationPolicy(operation, clientBase.basePath);
  const baseHeaders = policy?.headers ?? {};
  const fail = failWith(respondError);
  const respond = compileRespond(operation, encoders, baseHeaders);
  const stages: (Stage | undefined)[] = [
    cors(parts.cors),
    policy?.docsPath !== undefined ? deprecation(policy.docsPath, policy.sunset) : undefined,
    parts.authenticate && authenticate(parts.authenticate, fail),
    policy?.sunset && sunsetStage(policy.sunset, sunsetError(operation, policy.sunset), parts.now, fail),
    scenarioStage(fail),
    fault(operation, chaos, fail),
    force(parts.force, respond, fail),
    validate(parts, fail),
    negotiate(operation, encoders, fail),
    session({ storeFor: parts.storeFor, writable: writes ? writable : undefined, sessionNotice: parts.sessionNotice }, fail),
    act(action, writes, respond, fail),
  ];
  return { stages: stages.filter((stage): stage is Stage => stage !== undefined), baseHeaders };
}

/**
 * The handler of one operation's route: its stages built once (`compileStages`), then for each
 * request the stages run until one answers, and the answer waits out the chaos delay, passes the
 * self-check and is recorded.
 */
export function handleOperation(parts: OperationParts) {
  const { preferDirectives, reader, chaos, record, verify, clientBase = { basePath: '' } } = parts;
  const { stages, baseHeaders } = compileStages(parts);

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
    // Where the client reached the mock, read when a URL is first written.
    let base: ClientBase | undefined;
    const client = () => (base ??= clientBaseOf(c, header, clientBase));
    const request: Ongoing = { c, trace, url, pathStart, query, header, accept: header('accept'), scenario, client, extra: baseHeaders };
    // The delay is drawn after the fault (a stage), so a seed replays the same sequence.
    let wait = 0;
    const done = (response: Response): Response | Promise<Response> => {
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
    const answered = runStages(stages, request);
    wait = chaos.delayMs(scenario instanceof ApiError ? undefined : scenario.delay);
    return answered instanceof Promise ? answered.then(done) : done(answered);
  };
}

function sunsetError(operation: Operation, sunset: Date): ApiError {
  const docs = operation.source.externalDocs?.url;
  const day = sunset.toISOString().slice(0, 10);
  return new ApiError(410, 'SUNSET', `${operation.method.toUpperCase()} ${operation.path} was sunset on ${day}${docs ? `; see ${docs}` : ''}.`);
}
