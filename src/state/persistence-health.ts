/**
 * What GET /__health says about where the state is kept: the state file's journal (journal.ts) or
 * the PostgreSQL store (postgres-stores.ts) each report it.
 */

/** What GET /__health reports about persistence. */
export interface PersistenceHealth {
  /** Whether there is a state file at all. */
  enabled: boolean;
  /** False while changes cannot be written (writes are then answered 503). */
  ok: boolean;
  /** When the journal or a snapshot was last written (ISO 8601), or null. */
  lastWrite: string | null;
  /** Why writing fails, or null. */
  error: string | null;
}
