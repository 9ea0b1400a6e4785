/** Stage `sunset`: past its `x-sunset` date, an operation answers 410. */
import type { ApiError } from '../../../core/api-error.js';
import type { Fail } from './fail.js';
import type { Stage } from './stage.js';

/** Refuses with `gone` once `now()` reaches the sunset. */
export function sunset(at: Date, gone: ApiError, now: () => number, fail: Fail): Stage {
  const ms = at.getTime();
  return { name: 'sunset', run: (request) => (now() >= ms ? fail(request, gone) : undefined) };
}
