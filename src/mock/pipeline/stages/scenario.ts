/** Stage `scenario`: a request whose `Prefer` directives cannot be read is refused (400), and the log says why. */
import { ApiError } from '../../../core/api-error.js';
import type { Fail } from './fail.js';
import type { Stage } from './stage.js';
import { applied } from './trace.js';

/** Refuses a request whose scenario was read as an error. */
export function scenario(fail: Fail): Stage {
  return {
    name: 'scenario',
    run(request) {
      if (!(request.scenario instanceof ApiError)) return undefined;
      applied(request.trace).invalid = request.scenario.message;
      return fail(request, request.scenario);
    },
  };
}
