/**
 * How the PostgreSQL store (postgres-store.ts) fails, as data: the request refused with a 503 while
 * the database cannot be used, one request refused with a 500 when the database refused what it
 * changed, and the one sentence the mock cannot start with; and how a pg error reads in them.
 */
import { ApiError } from '../core/api-error.js';

/** The database could not be reached or refused the work: the request is answered 503 with Retry-After. */
export class StoreUnavailable extends ApiError {
  constructor(reason: string) {
    super(503, 'STORE_UNAVAILABLE', `The state is kept in PostgreSQL, which cannot be used now (${reason}). Try again shortly (GET /__health says when it is back).`, undefined, { 'Retry-After': '1' });
  }
}

/**
 * The database refused what one request changed, for what it holds (see refusedForContent), and
 * kept none of it: that request alone is answered 500; the database still serves the others.
 */
export class StoreRefused extends ApiError {
  constructor(reason: string) {
    super(500, 'STORE_REFUSED', `PostgreSQL refused what this request changed (${reason}), so none of it was kept; other requests are not affected.`);
  }
}

/** Why the store cannot start: one sentence, for the CLI's fatal line or the library's rejection. */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError';
}

/** The URL with its password masked, for messages. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/** What a failed query says, in a few words (the pg error's code and message). */
export function reasonOf(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const message = (e?.message ?? String(error)).split('\n')[0];
  return e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

/**
 * Whether the database refused a unit for what it holds, rather than failing: a data exception
 * (SQLSTATE class 22), an integrity constraint (23), a limit (54: the size of an index row, which a
 * key or a scope no longer reaches, or one an operator's index adds), or an exception raised in
 * PL/pgSQL (P0: a trigger of the operator's). That is one request's failure. Anything else (no SQLSTATE: the connection;
 * a server shutting down, a timeout, a missing table) means the database cannot be used.
 */
export function refusedForContent(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^(22|23|54|P0)/.test(code);
}

/** Out of a transaction whose changes, together, the database refused for what they hold: the collections they changed in the copy. */
export class ContentRefused extends Error {
  constructor(readonly collections: ReadonlySet<string>) {
    super('The database refused the changes of a group commit for what they hold.');
  }
}
