/** Stage `force`: the answer a request's scenario forces (`Prefer: code=404`, an example), before anything is validated or changed. */
import { ApiError } from '../../../core/api-error.js';
import type { compileScenarioResponder } from '../../scenarios/force-response.js';
import type { Scenario } from '../exchange.js';
import type { Fail } from './fail.js';
import type { Respond } from './respond.js';
import type { Stage } from './stage.js';
import { applied } from './trace.js';

/** Answers what `forced` (the operation's scenario responder) gives for the request's scenario, if anything. */
export function force(forced: ReturnType<typeof compileScenarioResponder>, respond: Respond, fail: Fail): Stage {
  return {
    name: 'force',
    run(request) {
      // Runs after `scenario`, which refused a scenario that could not be read.
      const result = forced(request.scenario as Scenario, request.accept);
      if (result instanceof ApiError) {
        applied(request.trace).outcome = result.code === 'SCENARIO_NOT_DECLARED' ? 'undeclared' : 'forced';
        return fail(request, result);
      }
      if (!result) return undefined;
      applied(request.trace).outcome = 'forced';
      return respond(result, request);
    },
  };
}
