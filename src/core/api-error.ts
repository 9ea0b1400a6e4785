/**
 * Errors as data: every 4xx/5xx the mock sends is an `ApiError`, turned into an `Error` body
 * (`{code, message, status}`, plus `details` for validation) in one place.
 */
import { respondJson } from './security-headers.js';
import { formatProblem, type Problem } from './problem.js';

export class ApiError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly details?: Problem[],
    readonly headers?: Record<string, string>,
  ) {}

  /** The `Error` object of the document. */
  toBody(): { code: string; message: string; status: number; details?: Problem[] } {
    return this.details?.length
      ? { code: this.code, message: this.message, status: this.status, details: this.details }
      : { code: this.code, message: this.message, status: this.status };
  }
}

/** Templates for the errors the pipeline itself raises. Operation-specific ones live with their rules. */
export const errors = {
  /** `hint`: where the document's operations are, in words (the path without a trailing slash, the base path). */
  routeNotFound: (method: string, path: string, hint?: string) => new ApiError(404, 'ROUTE_NOT_FOUND', `No operation of the document matches ${method} ${path}${hint ? `; ${hint}` : ''}.`),
  methodNotAllowed: (method: string, path: string, allow: string[]) =>
    new ApiError(405, 'METHOD_NOT_ALLOWED', `${path} does not support ${method}; it supports ${allow.join(', ')}.`, undefined, {
      Allow: allow.join(', '),
    }),
  notFound: (what: string, key: string) => new ApiError(404, 'NOT_FOUND', `No ${what} has ${key}.`),
  validation: (problems: Problem[]) =>
    new ApiError(
      400,
      'VALIDATION_FAILED',
      problems.length === 1
        ? formatProblem(problems[0])
        : `${problems.length} problems: ${problems.map(formatProblem).join('; ')}`.slice(0, 2000),
      problems,
    ),
  invalidJson: (reason: string) => new ApiError(400, 'INVALID_JSON', `The request body is not valid JSON: ${reason}.`),
  missingBody: () => new ApiError(400, 'MISSING_BODY', 'This operation requires a request body, and none was sent.'),
  invalidContentType: (received: string | undefined, accepted: string[]) =>
    new ApiError(
      400,
      'INVALID_CONTENT_TYPE',
      received
        ? `Content-Type ${received} is not accepted here; send ${accepted.join(' or ')}.`
        : `A request body needs a Content-Type header; send ${accepted.join(' or ')}.`,
    ),
  // The connection closes after a 413, once the client has sent the rest (read and dropped: see read-body.ts).
  payloadTooLarge: (limit: number) =>
    new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes.`, undefined, { Connection: 'close' }),
  notAcceptable: (accept: string, declared: string[]) =>
    new ApiError(406, 'NOT_ACCEPTABLE', `Accept ${accept.slice(0, 200)} takes none of the media types this answer is declared in: ${declared.join(', ')}.`),
  internal: () => new ApiError(500, 'INTERNAL_ERROR', 'The mock failed to answer this request; it is still running.'),
};

/** Builds the HTTP response for an error: JSON `Error` body, `status` equal to the HTTP status. */
export function errorResponse(error: ApiError, headers?: Record<string, string>): Response {
  return respondJson(error.toBody(), error.status, { ...error.headers, ...headers });
}
