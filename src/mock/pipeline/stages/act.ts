/**
 * Stage `act`: the operation's action on the request's store, inside the store's transaction (a
 * promise only for a store that needs one), answered as the operation declares it. Always answers:
 * it is the last stage.
 */
import { ApiError } from '../../../core/api-error.js';
import type { Action, ActionResult } from '../exchange.js';
import type { Fail } from './fail.js';
import type { Respond } from './respond.js';
import type { Ongoing, Stage } from './stage.js';

/** Runs `action` with the validated request (`validate`) on its store (`session`), its scenario read (`scenario`); `writes`: whether the operation may change the state. */
export function act(action: Action, writes: boolean, respond: Respond, fail: Fail): Stage {
  // What the request may do to the state: a GET or HEAD reads it (TransactIntent).
  const intent = { writes };
  return {
    name: 'act',
    run(request: Ongoing) {
      const { store, request: valid } = request;
      const finish = (result: ActionResult | ApiError) => (result instanceof ApiError ? fail(request, result) : respond(result, request));
      const result = store!.transact(
        () =>
          action({ store: store!, params: valid!.params, body: valid!.body, mediaType: valid!.mediaType, url: request.url.slice(request.pathStart), client: request.client, scenario: request.scenario as Exclude<Ongoing['scenario'], ApiError>, respondAs: request.respondAs }),
        intent,
      );
      // A store that cannot serve now (its database lost) refuses with an ApiError: the document's error shape.
      return result instanceof Promise ? result.then(finish, (error) => (error instanceof ApiError ? fail(request, error) : Promise.reject(error))) : finish(result);
    },
  };
}
