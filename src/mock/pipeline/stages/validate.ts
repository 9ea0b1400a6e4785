/**
 * Stage `validate`: the request's parameters and body against the operation's declarations; a
 * refusal (400, 413, 415) lists its problems in the log. Waits only when the operation reads a body.
 */
import { ApiError } from '../../../core/api-error.js';
import type { HonoRoute } from '../../routing/hono-path.js';
import type { compileRequestValidator, ValidRequest } from '../../../openapi/validation/validate-request.js';
import type { RequestReader } from '../request-reader.js';
import type { Fail } from './fail.js';
import type { Ongoing, Stage } from './stage.js';

export interface ValidateParts {
  validate: ReturnType<typeof compileRequestValidator>;
  readParams: HonoRoute['params'];
  reader: RequestReader;
  maxBodyBytes: number;
}

/** Validates the request, keeping the valid one on it for the stages after. */
export function validate({ validate: check, readParams, reader, maxBodyBytes }: ValidateParts, fail: Fail): Stage {
  const settle = (request: Ongoing, validated: ValidRequest | ApiError): Response | undefined => {
    if (validated instanceof ApiError) {
      if (validated.details) request.trace.problems = validated.details;
      return fail(request, validated);
    }
    request.request = validated;
    return undefined;
  };
  return {
    name: 'validate',
    run(request) {
      const { c } = request;
      const body = () => reader.body(c, maxBodyBytes);
      const validated = check({ path: readParams((name) => c.req.param(name)), query: request.query, header: request.header, body });
      return validated instanceof Promise ? validated.then((valid) => settle(request, valid)) : settle(request, validated);
    },
  };
}
