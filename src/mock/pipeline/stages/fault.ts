/** Stage `fault`: the server-wide chaos settings may fail a request on purpose (drawn from the seed). */
import type { Operation } from '../../../openapi/operations/operation.js';
import type { Chaos } from '../../scenarios/chaos.js';
import type { Fail } from './fail.js';
import type { Stage } from './stage.js';
import { applied } from './trace.js';

/** Answers the fault `chaos` draws for the operation, if any. */
export function fault(operation: Operation, chaos: Chaos, fail: Fail): Stage {
  return {
    name: 'fault',
    run(request) {
      const drawn = chaos.fault(operation);
      if (!drawn) return undefined;
      applied(request.trace).fault = drawn.status;
      return fail(request, drawn);
    },
  };
}
