/**
 * The state file, as the server sees it: no answer leaves before the changes made before it are
 * in the journal, and a write is refused (503) rather than acknowledged while they cannot be written.
 */
import { ApiError, errorResponse } from '../core/api-error.js';
import type { StateJournal } from './journal.js';
import type { PersistenceHealth } from './persistence-health.js';


type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;


export const NO_PERSISTENCE: PersistenceHealth = Object.freeze({ enabled: false, ok: true, lastWrite: null, error: null });

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The 503 a write gets while the state cannot be written (the mock's gate, and answers caught by a failure). */
export function persistenceRefusal(journal: Pick<StateJournal, 'failing'>): ApiError | undefined {
  const failing = journal.failing;
  if (!failing) return undefined;
  return new ApiError(503, 'PERSISTENCE_FAILED', `The state cannot be saved, so writes are refused until it can (reads still work; see GET /__health): ${failing}.`, undefined, { 'Retry-After': '1' });
}

/**
 * Holds each answer until the journal has written every change made before it. A successful write
 * whose changes could not be written is answered 503 instead: the change may still show in
 * memory, but it was not saved, and a client that was told 201 would count on it.
 */
export function persistAnswers(fetch: Fetch, journal: StateJournal): Fetch {
  const settle = (response: Response, method: string): Response | Promise<Response> => {
    const written = journal.waitWritten();
    if (written === true) return response;
    if (written === false) return refuse(response, method);
    return written.then((ok) => (ok ? response : refuse(response, method)));
  };
  const refuse = (response: Response, method: string): Response => {
    if (READS.has(method) || response.status >= 400) return response;
    const error = persistenceRefusal(journal) ?? new ApiError(503, 'PERSISTENCE_FAILED', 'The state could not be saved.');
    // The CORS headers the answer had, so a browser can read the refusal.
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name.startsWith('access-control-') || name === 'vary') headers[name] = value;
    });
    return errorResponse(error, headers);
  };
  return (request, env) => {
    const answer = fetch(request, env);
    const method = request.method;
    return answer instanceof Promise ? answer.then((response) => settle(response, method)) : settle(answer, method);
  };
}
