/** Stage `authenticate`: a request without the credentials the operation's security asks for is refused (401). */
import type { compileAuthenticator } from '../../security/authenticate.js';
import type { Fail } from './fail.js';
import type { Stage } from './stage.js';

/** Refuses what `check` (the operation's compiled security) denies, from the request's headers and query. */
export function authenticate(check: NonNullable<ReturnType<typeof compileAuthenticator>>, fail: Fail): Stage {
  return {
    name: 'authenticate',
    run(request) {
      const denied = check({ header: request.header, query: request.query });
      return denied ? fail(request, denied) : undefined;
    },
  };
}
