/**
 * A profile: the rules and conventions of one API that its document states only in prose, added
 * to the suite through the same registries as the built-in checks and phases. The core knows no
 * profile by name; a run is given the profiles to apply (the CLI applies the Petstore's to the
 * bundled document, and to another only when asked with --profile).
 */
import type { CheckId } from '../check-id.js';
import type { Check } from '../checks/check.js';
import type { Phase } from '../phases/phase.js';
import type { CreatePreparation } from '../phases/records.js';

export interface Profile {
  name: string;
  /** One line for --help and the report. */
  description: string;
  /**
   * Checks by id: a new id (with what it applies to), or one more function under a built-in id.
   * A new id is declared first, with its purposes, by merging into CheckIds (check-id.ts) and
   * Purposes (purpose.ts).
   */
  checks?: Partial<Record<CheckId, { check: Check; scope?: string }>>;
  /** Phases run after the built-in ones. */
  phases?: Phase[];
  /** Per collection (or `collection:action`), what a create or an update needs that the schemas cannot tell. */
  preparations?: Record<string, CreatePreparation>;
}
