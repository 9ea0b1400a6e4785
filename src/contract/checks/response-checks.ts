/**
 * Checks that hold for every response the suite receives, whatever the case was about. Each
 * asserts only what the document declares for the response: its statuses, media types, schemas
 * and headers.
 */
import type { Problem } from '../../core/problem.js';
import type { Evidence, Exchange } from '../case.js';
import type { Check, CheckContext, Verdict } from './check.js';
import { excerpt, valueAt } from './check.js';
import { describeRefusals, statusRule } from './status-rule.js';

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** At most this many problems of one body are reported (a list of 100 bad records is one fault). */
const MAX_BODY_PROBLEMS = 5;

/** An answer arrives, whole: within the request timeout, no larger than the cap, on a connection that holds. */
export const response_received: Check = (_ctx, ex) => (ex.error ? [{ received: ex.error, documented: 'an HTTP answer to every request' }] : []);

/** No request the suite sends may get a 5xx. */
export const not_a_server_error: Check = (_ctx, ex) =>
  ex.status >= 500 ? [{ received: `${ex.status} ${excerpt(ex.text, 80)}`.trim(), documented: 'no 5xx for any request' }] : [];

/**
 * Every status is one the operation declares (exactly, as a range like 4XX, or as default). An
 * undeclared status is a failure, but for a request the suite sent wrong on purpose and refused
 * with a 4xx where the operation declares no status that fits the fault: a gap of the document
 * (the one status rule, status-rule.ts).
 */
export const status_code_conformance: Check = (ctx, ex) => {
  const problem = ctx.problems(ex).find((p) => p.path === 'status');
  if (!problem) return [];
  const facts = { ...evidence(problem), status: ex.status, received: String(ex.status) };
  const rule = ex.status >= 400 && ex.status < 500 ? statusRule(ex.case) : undefined;
  if (rule && rule.open.length === 0) return [{ ...facts, expected: rule.promised.map(String), documented: `${describeRefusals(rule)} for ${ex.case.label}, as the operation declares` }];
  const documented = `one of ${problem.declared?.join(', ')}`;
  if (rule) return [{ ...facts, kind: 'gap', documented: `${documented}: the document declares no ${ex.status} for ${ex.case.label}` }];
  return [{ ...facts, documented }];
};

/** The Content-Type is a media type declared for that status. */
export const content_type_conformance: Check = (ctx, ex) => {
  const problem = ctx.problems(ex).find((p) => p.path === 'header.Content-Type');
  return problem ? [{ ...evidence(problem), status: ex.status, received: `${ex.status} with Content-Type ${ex.headers.get('content-type') ?? '(none)'}`, documented: problem.declared?.join(', ') ?? problem.message }] : [];
};

/** A success (or redirect) body validates against the schema declared for its status and media type. */
export const response_schema_conformance: Check = (ctx, ex) => (ex.status < 400 ? bodyVerdicts(ctx, ex) : undefined);

/**
 * An error body is the one the document declares for that error response, whatever its name or
 * media type (an `Error` object, RFC 9457 problem details...). A problem details body with a
 * `status` member must carry the HTTP status (RFC 9457 3.1.3: generators MUST use the same one).
 */
export const error_shape: Check = (ctx, ex) => {
  if (ex.status < 400) return undefined;
  const verdicts = bodyVerdicts(ctx, ex);
  const body = ex.json as Record<string, unknown> | undefined;
  if (/^application\/problem\+json/i.test(ex.headers.get('content-type') ?? '') && body && typeof body === 'object' && 'status' in body && body.status !== ex.status) {
    verdicts.push({ received: `${ex.status} with problem details status ${JSON.stringify(body.status)}`, documented: `status equal to the HTTP status ${ex.status} (RFC 9457)` });
  }
  return verdicts;
};

function bodyVerdicts(ctx: CheckContext, ex: Exchange): Verdict[] {
  const problems = ctx.problems(ex).filter((p) => p.path === 'body' || p.path.startsWith('body.'));
  return problems.slice(0, MAX_BODY_PROBLEMS).map((problem) => bodyVerdict(ex, problem));
}

function bodyVerdict(ex: Exchange, problem: Problem): Verdict {
  const facts = { ...evidence(problem), status: ex.status };
  if (problem.rule === 'required') return { ...facts, received: `${ex.status} without ${problem.path}`, documented: `${ex.status} requires field \`${problem.path.split('.').pop()}\`` };
  if (problem.rule === 'json' || problem.rule === 'empty') return { ...facts, received: `${ex.status} with a body that ${problem.message}`, documented: `${ex.status} ${problem.rule === 'json' ? 'has a JSON body' : 'has no body'}` };
  return { ...facts, received: `${ex.status} with ${problem.path} = ${valueAt(ex.json, problem.path)}`, documented: `${problem.path} ${problem.message}` };
}

/** The typed facts of a problem, as the validator set them. */
function evidence({ path, rule, declared, schemaPath }: Problem): Evidence {
  return { path, rule, declared, schemaPath };
}

/**
 * Every header the document declares for the response is present (when required) and matches its
 * schema, each problem reported. A declared `Sunset` of an operation that records its date in
 * `x-sunset` is that date as an HTTP-date (RFC 8594).
 */
export const response_headers_conformance: Check = (ctx, ex) => {
  const verdicts: Verdict[] = ctx
    .problems(ex)
    .filter((p) => p.path.startsWith('header.') && p.path !== 'header.Content-Type')
    .map((problem) => {
      const name = problem.path.slice('header.'.length);
      const value = ex.headers.get(name);
      return { ...evidence(problem), status: ex.status, received: value === null ? `${ex.status} without ${name}` : `${ex.status} with ${name}: ${value}`, documented: `${name} ${problem.message}` };
    });
  const sunset = sunsetVerdict(ctx, ex);
  if (sunset) verdicts.push(sunset);
  return verdicts;
};

function sunsetVerdict(ctx: CheckContext, ex: Exchange): Verdict | undefined {
  const date = ex.case.operation.source['x-sunset'];
  const sent = ex.headers.get('sunset');
  if (date === undefined || sent === null || !ctx.declaresHeader(ex, 'Sunset')) return undefined;
  const expected = new Date(/^\d{4}-\d{2}-\d{2}$/.test(String(date)) ? `${String(date)}T00:00:00Z` : String(date));
  if (HTTP_DATE.test(sent) && new Date(sent).getTime() === expected.getTime()) return undefined;
  return { received: `${ex.status} with Sunset: ${sent}`, documented: `Sunset: ${expected.toUTCString()} (the HTTP-date of x-sunset, RFC 8594)` };
}

/**
 * A request the suite built valid (by the document's schemas, pointing at records that exist) is
 * accepted. Refusing it as bad input, unauthenticated or unknown is a failure; a conflict (409)
 * may come from a rule of state the document describes only in prose, so it is a gap. A request
 * to a record the suite could not find may get a 404. A case sent for another check (a read
 * back, a DELETE) is judged by that check.
 */
export const positive_data_acceptance: Check = (_ctx, ex) => {
  const guessed = ex.case.intent === 'guessed';
  if ((ex.case.intent !== 'valid' && !guessed) || ex.case.purpose || ex.status >= 500 || (guessed && ex.status === 404)) return undefined;
  if (ex.status < 400) return [];
  return [{ received: `${ex.status} ${excerpt(ex.text, 80)}`.trim(), documented: `a success for ${ex.case.label}, valid by the document`, kind: ex.status === 409 ? 'gap' : 'failure' }];
};
