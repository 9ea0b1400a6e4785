/**
 * How every stage refuses: an error answered as the operation declares it, for the request's
 * `Accept`, with the request's headers; how it was fitted goes in the trace.
 */
import type { ApiError } from '../../../core/api-error.js';
import type { ErrorResponder } from '../../respond/error-response.js';
import type { Ongoing } from './stage.js';
import { fitted } from './trace.js';

/** Answers an error for a request under way. */
export type Fail = (request: Ongoing, error: ApiError) => Response;

/** The refusal of one operation, from its error responder. */
export function failWith(respondError: ErrorResponder): Fail {
  return (request, error) =>
    respondError(error, request.extra, {
      accept: request.accept,
      fitted: (message, undeclared) => fitted(request.trace, message, undeclared),
      client: request.client,
    });
}
