/**
 * Checks that hold for every response the suite receives, whatever the case was about.
 */
import type { Check, Verdict } from './check.js';
import { valueAt } from './check.js';

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** No request the suite sends may get a 5xx. */
export const not_a_server_error: Check = (_ctx, ex) =>
  ex.status >= 500 ? { received: `${ex.status} ${ex.text.slice(0, 80)}`.trim(), documented: 'no 5xx for any request' } : undefined;

/** Every status is one the operation declares (exactly, as a range like 4XX, or as default). */
export const status_code_conformance: Check = (ctx, ex) => {
  const problem = ctx.problems(ex).find((p) => p.path === 'status');
  return problem && { received: String(ex.status), documented: `one of ${problem.message.replace(/^.*\(declared: (.*)\)$/, '$1')}` };
};

/** The Content-Type is a media type declared for that status. */
export const content_type_conformance: Check = (ctx, ex) => {
  const problem = ctx.problems(ex).find((p) => p.path === 'header.Content-Type');
  return problem && { received: `${ex.status} with Content-Type ${ex.headers.get('content-type') ?? '(none)'}`, documented: problem.message.replace(/^.*\(declared: (.*)\)$/, '$1') };
};

/** The body validates against the schema declared for its status and media type. */
export const response_schema_conformance: Check = (ctx, ex) => {
  const problems = ctx.problems(ex).filter((p) => p.path === 'body' || p.path.startsWith('body.'));
  if (problems.length === 0) return undefined;
  const [first] = problems;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  if (first.rule === 'required') {
    return { received: `${ex.status} without ${first.path}${more}`, documented: `${ex.status} requires field \`${first.path.split('.').pop()}\`` };
  }
  if (first.rule === 'json' || first.rule === 'empty') return { received: `${ex.status} with a body that ${first.message}`, documented: `${ex.status} ${first.rule === 'json' ? 'has a JSON body' : 'has no body'}` };
  return { received: `${ex.status} with ${first.path} = ${valueAt(ex.json, first.path)}${more}`, documented: `${first.path} ${first.message}` };
};

/**
 * Declared headers are present and well-formed; a 201 of a create has a Location; a deprecated operation
 * sends `Deprecation: @<unix-seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) when it has a
 * sunset, and a Link with rel="deprecation" or rel="sunset".
 */
export const response_headers_conformance: Check = (ctx, ex) => {
  const problem = ctx.problems(ex).find((p) => p.path.startsWith('header.') && p.path !== 'header.Content-Type');
  if (problem) {
    const name = problem.path.slice('header.'.length);
    const value = ex.headers.get(name);
    return { received: value === null ? `${ex.status} without ${name}` : `${ex.status} with ${name}: ${value}`, documented: `${name} ${problem.message}` };
  }
  if (ex.status === 201 && ctx.createsRecord(ex.case.operation) && !ex.headers.get('location')) return { received: '201 without Location', documented: 'a 201 carries the Location of the created record' };
  return ex.case.operation.deprecated && ex.status < 300 ? deprecationHeaders(ex.case.operation.source, ex.headers, ex.status) : undefined;
};

function deprecationHeaders(source: Record<string, unknown>, headers: Headers, status: number): Verdict | undefined {
  const deprecation = headers.get('deprecation');
  if (!deprecation || !/^@-?\d+$/.test(deprecation)) {
    return { received: `${status} with Deprecation: ${deprecation ?? '(none)'}`, documented: 'Deprecation: @<unix-seconds> on a deprecated operation (RFC 9745)' };
  }
  const sunset = headers.get('sunset');
  if (source['x-sunset'] !== undefined) {
    const expected = new Date(/^\d{4}-\d{2}-\d{2}$/.test(String(source['x-sunset'])) ? `${String(source['x-sunset'])}T00:00:00Z` : String(source['x-sunset']));
    if (!sunset || !HTTP_DATE.test(sunset) || new Date(sunset).getTime() !== expected.getTime()) {
      return { received: `${status} with Sunset: ${sunset ?? '(none)'}`, documented: `Sunset: ${expected.toUTCString()} (RFC 8594 HTTP-date of x-sunset)` };
    }
  }
  const link = headers.get('link') ?? '';
  if (!/rel="?[^"]*\b(deprecation|sunset)\b/.test(link)) {
    return { received: `${status} with Link: ${link || '(none)'}`, documented: 'a Link with rel="deprecation" or rel="sunset"' };
  }
  return undefined;
}

/** Every 4xx/5xx body is an Error with a non-empty code and message, and status equal to the HTTP status. */
export const error_shape: Check = (ctx, ex) => {
  if (!ctx.errorShape || ex.status < 400) return undefined;
  const body = ex.json as Record<string, unknown> | undefined;
  const documented = `an Error {code, message, status: ${ex.status}}`;
  if (!body || typeof body !== 'object') return { received: `${ex.status} with body ${JSON.stringify(ex.text.slice(0, 60))}`, documented };
  for (const field of ['code', 'message'] as const) {
    if (typeof body[field] !== 'string' || body[field] === '') return { received: `${ex.status} with ${field} = ${JSON.stringify(body[field] ?? null)}`, documented: `${documented} with a non-empty ${field}` };
  }
  if (body.status !== ex.status) return { received: `${ex.status} with Error.status = ${JSON.stringify(body.status ?? null)}`, documented: `Error.status equal to the HTTP status ${ex.status}` };
  return undefined;
};
