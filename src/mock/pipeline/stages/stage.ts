/**
 * A stage of the per-request pipeline and the loop that runs a list of them. Each stage is made
 * once per operation by a small factory (one file each in this folder) and does one job on the
 * request under way: it answers (a refusal, a forced answer, the action's result), or notes what
 * it found on the request and lets the next stage go on. A stage answers synchronously unless it
 * must wait (a body to read, a store that needs a promise), so a GET is answered without a promise.
 */
import type { Context } from 'hono';
import type { ApiError } from '../../../core/api-error.js';
import type { QueryString } from '../../../core/query-string.js';
import type { StateStore } from '../../../state/state-store.js';
import type { ValidRequest } from '../../../openapi/validation/validate-request.js';
import type { ClientBase } from '../client-base.js';
import type { Scenario } from '../exchange.js';
import type { HeaderReader } from '../request-reader.js';
import type { RequestTrace } from './trace.js';

/** One request under way: what it carries and what the stages so far found on it. */
export interface Ongoing {
  readonly c: Context;
  readonly trace: RequestTrace;
  /** The request's URL, and where its path starts in it. */
  readonly url: string;
  readonly pathStart: number;
  readonly query: QueryString;
  readonly header: HeaderReader;
  readonly accept: string | null | undefined;
  /** The `Prefer` directives the request asked for, or why they cannot be read. */
  readonly scenario: Scenario | ApiError;
  /** Where the client reached the mock, read on first use. */
  readonly client: () => ClientBase;
  /** The headers every answer to this request carries beyond the security ones (deprecation, CORS, session notice). */
  extra: Record<string, string>;
  /** The validated request (from `validate`). */
  request?: ValidRequest;
  /** The declared media type the success answer is sent in, when `Accept` chose one (from `negotiate`). */
  respondAs?: string;
  /** The store the request acts on (from `session`). */
  store?: StateStore;
}

/** What a stage's step gives back: an answer, undefined to go on, or a promise of either. */
export type Step = (request: Ongoing) => Response | Promise<Response | undefined> | undefined;

/** A stage: its name (what `stagesOf` lists) and its step. */
export interface Stage {
  readonly name: string;
  readonly run: Step;
}

/** Runs the stages from `from` until one answers; synchronous until a stage returns a promise. */
export function runStages(stages: readonly Stage[], request: Ongoing, from = 0): Response | Promise<Response> {
  for (let index = from; index < stages.length; index++) {
    const out = stages[index].run(request);
    if (out === undefined) continue;
    if (out instanceof Promise) return out.then((answered) => answered ?? runStages(stages, request, index + 1));
    return out;
  }
  // The last stage (`act`) always answers; a list without it is a bug of its builder.
  throw new Error('No stage answered the request.');
}
