/**
 * Judging real traffic by the document, with the validators and checks the mock and the contract
 * suite use: a request by its operation's request validator (`requestJudge`), an answer by the
 * contract suite's response checks (declared status, media type, body schema, declared headers,
 * error shape, and the response checks plugins add), each finding a violation with the exchange,
 * what was received, what the document says and a curl repro, secrets masked.
 */
import type { ApiError } from '../core/api-error.js';
import type { Problem } from '../core/problem.js';
import type { LoadedDocument } from '../openapi/document/load-document.js';
import type { Operation } from '../openapi/operations/operation.js';
import { createFaker } from '../openapi/generate/create-faker.js';
import { createGenerator } from '../openapi/generate/from-schema.js';
import { compileErrorResponder, type ErrorResponder } from '../mock/respond/error-response.js';
import { compileDocument, type CompiledDocument } from '../openapi/validation/compiled-document.js';
import type { PlainRequest } from '../openapi/validation/judge-request.js';
import { FITS_OF_INTENT, type Case, type Exchange, type FindingKind } from '../contract/case.js';
import { CHECK_IDS, RESPONSE_CHECK_IDS, type CheckId } from '../contract/check-id.js';
import { checkContext, excerpt, type Verdict } from '../contract/checks/check.js';
import type { CheckRegistry } from '../contract/evaluate.js';
import { reproOf } from '../contract/repro.js';
import { exchangeMasker, type ExchangeMask } from './exchange-mask.js';

/** The proxy's own checks, beside the contract suite's: the request keeps to the document, and the route is one it describes. */
export type ProxyCheckId = CheckId | 'request_conformance' | 'documented_operation';

/**
 * The suite's response checks that hold for any answer to any request. Left out: whether a 5xx
 * is fair (the document decides that, through its statuses) and whether a valid request must
 * succeed (real traffic is refused for reasons of state the document does not describe).
 */
const NOT_FOR_TRAFFIC = new Set<CheckId>(['response_received', 'not_a_server_error', 'positive_data_acceptance']);

/** Headers a repro leaves to curl: the connection's, the length, the client's name. */
const NOT_REPEATED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'user-agent', 'accept-encoding']);

export interface Violation {
  /** Counts from 1 in the proxy's life. */
  id: number;
  /** ISO time of the exchange. */
  time: string;
  check: ProxyCheckId;
  /** A failure breaks a promise of the document; a gap is what it leaves open (a refusal with an undeclared status). */
  kind: FindingKind;
  /** `GET /pets/{petId}`, or the method and path of a request no operation describes. */
  operation: string;
  operationId?: string;
  received: string;
  documented: string;
  /** `GET /pets/7` */
  request: string;
  /** The status and the start of the body. */
  response?: string;
  /** Who answered: the upstream, the mock filling in, or the proxy itself (`--errors`). */
  answeredBy: AnsweredBy;
  /** A curl command that sends the request again to the upstream, secrets as `***`. */
  repro: string;
  /** The typed facts, as the validator set them. */
  path?: string;
  rule?: string;
  declared?: string[];
  expected?: string[];
  schemaPath?: string;
  status?: number;
}

export type AnsweredBy = 'upstream' | 'mock' | 'proxy';

/** A request as the proxy read it. */
export interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  target: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface SeenAnswer {
  status: number;
  headers: Headers;
  /** The body as text, when it was read (JSON within the size limit); undefined when it streamed through. */
  text?: string;
  /** The body parsed, when it is JSON. */
  json?: unknown;
  ms: number;
}

export interface Inspector {
  /** The checks that judge traffic, in report order: the request's, the response checks (built-in and the plugins'), the route's. */
  checkIds: ProxyCheckId[];
  /** The problems of a request against its operation (none when it keeps to the document). */
  judge(operation: Operation, params: Record<string, string>, request: SeenRequest): Promise<Problem[]>;
  /** What an answer breaks, given what the request broke. */
  check(operation: Operation, request: SeenRequest, problems: Problem[], answer: SeenAnswer, answeredBy: AnsweredBy): Omit<Violation, 'id' | 'time'>[];
  /** The violation of a request the document describes nowhere. */
  undocumented(request: SeenRequest, answer: SeenAnswer | undefined, answeredBy: AnsweredBy, where: string): Omit<Violation, 'id' | 'time'>;
  /** The violation of a request that breaks the document. */
  invalidRequest(operation: Operation, request: SeenRequest, problems: Problem[], answeredBy: AnsweredBy): Omit<Violation, 'id' | 'time'>;
  /** An error as the operation declares its errors (the mock's error shaping). */
  error(operation: Operation, error: ApiError, accept: string | null): Response;
  /** The secrets of an exchange masked (exchange-mask.ts): for the log line and the recorder, as for the violations. */
  mask(request: SeenRequest, answer?: SeenAnswer): ExchangeMask;
}

export interface InspectorOptions {
  document: LoadedDocument;
  /** The check registry (the built-ins and the plugins' checks): the response checks of it run. */
  checks: CheckRegistry;
  /** Where repros send requests: the upstream's base URL. */
  upstreamUrl: string;
  /** The largest request body the validator reads (a larger one is refused as too large). */
  maxBodyBytes: number;
  warn?: (message: string) => void;
  /** The document compiled once, shared with the proxy's mock; default: one compiled here (told `warn`). */
  compiled?: CompiledDocument;
}

export function createInspector(options: InspectorOptions): Inspector {
  const { document, checks, upstreamUrl } = options;
  const compiled = options.compiled ?? compileDocument(document, { warn: options.warn });
  const { responseValidator } = compiled;
  const context = checkContext(compiled.checkResponse);
  const judge = compiled.requestJudge({ maxBodyBytes: options.maxBodyBytes });
  const generate = createGenerator(createFaker(), { document: document.api });
  const responders = new WeakMap<Operation, ErrorResponder>();
  const masked = exchangeMasker(document.api);
  // The response checks, and those plugins add (one that judges only the cases of its own purpose says nothing here).
  const responseChecks = [...checks].filter(([id]) => (RESPONSE_CHECK_IDS.includes(id as never) && !NOT_FOR_TRAFFIC.has(id)) || !CHECK_IDS.includes(id as never));

  const caseOf = (operation: Operation | undefined, request: SeenRequest, problems: Problem[]): Case => {
    const intent = problems.length ? 'invalid' : 'valid';
    return {
      operation: operation!,
      method: request.method,
      path: request.target,
      headers: request.headers,
      body: request.body,
      label: problems.length ? `a request that breaks the document (${problems.map(describeProblem).join('; ')})` : 'a request that keeps to the document',
      intent,
      fits: FITS_OF_INTENT[intent],
    };
  };
  const reproFor = (request: SeenRequest, mask: ExchangeMask) => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !NOT_REPEATED.has(name.toLowerCase())));
    return mask.text(reproOf({ method: request.method, path: mask.target(request.target), headers, body: request.body } as Case, upstreamUrl, undefined));
  };
  const requestLine = (request: SeenRequest, mask: ExchangeMask) => `${request.method} ${mask.target(request.target)}`;
  const responseLine = (answer: SeenAnswer) => `${answer.status} ${excerpt(answer.text ?? '(body streamed, not read)', 200)}`.trim();

  return {
    mask: masked,
    checkIds: ['request_conformance', ...responseChecks.map(([id]) => id), 'documented_operation'],

    judge: (operation, params, request) => {
      const query = request.target.includes('?') ? request.target.slice(request.target.indexOf('?') + 1) : '';
      const plain: PlainRequest = { path: params, query, headers: request.headers, body: request.body };
      return judge(operation, plain);
    },

    check(operation, request, problems, answer, answeredBy) {
      const exchange: Exchange = { case: caseOf(operation, request, problems), status: answer.status, headers: answer.headers, text: answer.text ?? '', json: answer.json, ms: answer.ms };
      const verdicts: Array<[CheckId, Verdict]> = [];
      for (const [id, { functions }] of responseChecks) {
        for (const check of functions) {
          for (const verdict of check(context, exchange) ?? []) {
            // A body that streamed through unread is not judged by what it is not.
            if (answer.text === undefined && verdict.path?.startsWith('body')) continue;
            verdicts.push([id, verdict]);
          }
        }
      }
      if (verdicts.length === 0) return [];
      // The secrets' masks only for what is kept: most exchanges break nothing.
      const mask = masked(request, answer);
      return verdicts.map(([id, { received, documented, kind, ...evidence }]) => ({
        ...evidence,
        check: id,
        kind: kind ?? 'failure',
        operation: `${operation.method.toUpperCase()} ${operation.path}`,
        operationId: operation.id,
        received: mask.text(received),
        documented,
        request: requestLine(request, mask),
        response: mask.text(responseLine(answer)),
        answeredBy,
        repro: reproFor(request, mask),
      }));
    },

    undocumented(request, answer, answeredBy, where) {
      const mask = masked(request, answer);
      return {
        check: 'documented_operation',
        kind: 'failure',
        operation: mask.text(`${request.method} ${request.target.split('?')[0]}`),
        received: `${requestLine(request, mask)}${answer ? `, answered ${answer.status}` : ''}`,
        documented: mask.text(where),
        request: requestLine(request, mask),
        response: answer && mask.text(responseLine(answer)),
        answeredBy,
        repro: reproFor(request, mask),
      };
    },

    invalidRequest(operation, request, problems, answeredBy) {
      const mask = masked(request, undefined);
      const first = problems[0];
      return {
        check: 'request_conformance',
        kind: 'failure',
        operation: `${operation.method.toUpperCase()} ${operation.path}`,
        operationId: operation.id,
        received: mask.text(problems.map(describeProblem).join('; ')),
        documented: `a request to ${operation.method.toUpperCase()} ${operation.path} that keeps to its parameters and body`,
        request: requestLine(request, mask),
        answeredBy,
        repro: reproFor(request, mask),
        path: first?.path,
        rule: first?.rule,
      };
    },

    error(operation, error, accept) {
      let respond = responders.get(operation);
      if (!respond) responders.set(operation, (respond = compileErrorResponder(operation, { generate, responseValidator })));
      return respond(error, {}, { accept });
    },
  };
}

function describeProblem(problem: Problem): string {
  return `${problem.path} ${problem.message}`;
}
