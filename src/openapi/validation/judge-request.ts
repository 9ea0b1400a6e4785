/**
 * The request validator of an operation applied to a request held as plain data, as a client
 * holds it (path parameters, query string, headers, body bytes) rather than as a server reads it.
 * The contract suite judges every case with it before sending: the same code the mock validates
 * requests with (`compileRequestValidator`), compiled once per operation.
 *
 * @example
 * const judge = requestJudge({ ajv, converter, warn: () => {}, maxBodyBytes: Infinity });
 * await judge(op, { path: { petId: '7' }, query: 'limit=500', headers: {} });
 * // → [{ path: 'query.limit', rule: 'maximum', message: 'must be <= 100' }]
 */
import type { Operation } from '../operations/operation.js';
import { ApiError } from '../../core/api-error.js';
import type { Problem } from '../../core/problem.js';
import { compileRequestValidator, type CompileContext, type RawRequest, type RequestValidator } from './validate-request.js';

export interface PlainRequest {
  /** Path parameters by name, as a router gives them (percent-decoded). */
  path: Record<string, string>;
  /** The query string without `?`, encoded as sent. */
  query: string;
  /** Header names in any case. */
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * Returns the problems the operation's validator finds in a request: none when it is valid.
 * @param validatorOf the operation's validator when one is compiled already (the mock's own, shared
 *   with its docs page); by default each operation's is compiled here, once.
 */
export function requestJudge(ctx: CompileContext, validatorOf?: (operation: Operation) => RequestValidator): (operation: Operation, request: PlainRequest) => Promise<Problem[]> {
  const validators = new WeakMap<Operation, RequestValidator>();
  return async (operation, request) => {
    let validate = validatorOf?.(operation) ?? validators.get(operation);
    if (!validate) validators.set(operation, (validate = compileRequestValidator(operation, ctx)));
    const result = await validate(rawRequestOf(request, ctx.maxBodyBytes));
    return result instanceof ApiError ? problemsOf(result) : [];
  };
}

/** A plain request as the validator reads one; a body over `maxBodyBytes` reads as too large. */
export function rawRequestOf(request: PlainRequest, maxBodyBytes: number): RawRequest {
  const headers = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const bytes = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : (request.body ?? new Uint8Array(0));
  return {
    path: request.path,
    query: request.query,
    header: (name) => headers.get(name),
    body: () => Promise.resolve(bytes.byteLength > maxBodyBytes ? undefined : bytes),
  };
}

/** The errors that refuse a body as a whole, each as the problem it is: its JSON, its media type, its absence, its size. */
const BODY_RULES: Record<string, string> = {
  INVALID_JSON: 'json',
  INVALID_CONTENT_TYPE: 'content-type',
  MISSING_BODY: 'required',
  PAYLOAD_TOO_LARGE: 'size',
};

function problemsOf(error: ApiError): Problem[] {
  if (error.details?.length) return error.details;
  return [{ path: 'body', rule: BODY_RULES[error.code] ?? error.code.toLowerCase(), message: error.message }];
}
