/** Stage `cors`: the CORS headers for the request's `Origin` join the headers of its answer. */
import type { Cors } from '../../middleware/cors.js';
import type { Stage } from './stage.js';

/** Adds the CORS headers `headersFor` gives the request's `Origin` (none for a request without one). */
export function cors(headersFor: Cors['headers']): Stage {
  return {
    name: 'cors',
    run(request) {
      const allowed = headersFor(request.header('origin'));
      if (allowed) request.extra = { ...request.extra, ...allowed };
      return undefined;
    },
  };
}
