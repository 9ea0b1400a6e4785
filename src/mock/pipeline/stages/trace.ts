/**
 * What the request log says of a request beyond its status, filled as the stages run and handed
 * to `record` with the answer.
 */
import type { AppliedScenario } from '../../scenarios/read-scenario.js';
import type { Problem } from '../../../core/problem.js';

/**
 * What its scenario did (absent when nothing applied), the validation problems of a refusal, how
 * the answer was fitted to the declarations, and what the self-check found.
 */
export interface RequestTrace {
  scenario?: AppliedScenario;
  problems?: Problem[];
  /** How the answer was fitted to the operation's declarations (a status or media type other than the mock's own), one sentence each. */
  fitted?: string[];
  /** The answer is knowingly not declared: no declared status or media type could say it (see src/mock/respond/error-response.ts). */
  undeclared?: boolean;
  /** With the self-check on, what the answer breaks in the document (none: absent). */
  selfCheck?: Problem[];
}

/** Notes a way the answer was fitted to the declarations. */
export function fitted(trace: RequestTrace, message: string, undeclared: boolean): void {
  (trace.fitted ??= []).push(message);
  if (undeclared) trace.undeclared = true;
}

/** The scenario record of a request, made on first use. */
export function applied(trace: RequestTrace): AppliedScenario {
  return (trace.scenario ??= {});
}
