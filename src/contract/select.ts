/**
 * The profiles, checks and operations of a run, checked against what exists: a typo is an error,
 * never a green run over nothing. Shared by the CLI (`contract`) and the library (`runContract`).
 */
import type { LoadedDocument } from '../document/document.js';
import type { CheckId } from './check-id.js';
import { buildOperations } from '../operations/build-operations.js';
import { checkRegistry } from './checks/index.js';
import { PROFILES } from './profiles/index.js';
import type { Profile } from './profiles/profile.js';

export interface Selection {
  /** Profile names; undefined means the default: the Petstore's for the bundled document, none otherwise. */
  profiles?: readonly string[];
  only?: readonly string[];
  operations?: readonly string[];
  /** Operation ids whose writes the caller vouches for (`all` for every one). */
  allowWrites?: readonly string[];
}

/** @returns the profiles of the run and the checks it is narrowed to, or a sentence naming what is unknown and what exists. */
export function selectRun(selection: Selection, document: LoadedDocument, bundled: boolean): { profiles: Profile[]; only?: CheckId[] } | string {
  const names = selection.profiles ?? (bundled ? ['petstore'] : []);
  const unknownProfile = names.filter((name) => name !== 'none' && !PROFILES[name]);
  if (unknownProfile.length) return `Unknown profile ${unknownProfile.join(', ')}; the profiles are: ${Object.keys(PROFILES).join(', ')} (or none).`;
  const profiles = names.filter((name) => name !== 'none').map((name) => PROFILES[name]);
  const checks = [...checkRegistry(profiles).keys()];
  const known = (id: string): id is CheckId => (checks as string[]).includes(id);
  const unknownCheck = selection.only?.filter((id) => !known(id)) ?? [];
  if (unknownCheck.length) return `Unknown check ${unknownCheck.join(', ')}; the checks are: ${checks.join(', ')}.`;
  const ids = buildOperations(document.api).map((op) => op.id);
  const unknownOperation = selection.operations?.filter((id) => !ids.includes(id)) ?? [];
  if (unknownOperation.length) return `Unknown operation ${unknownOperation.join(', ')}; the document's operations are: ${ids.join(', ')}.`;
  const unknownWrite = selection.allowWrites?.filter((id) => id !== 'all' && !ids.includes(id)) ?? [];
  if (unknownWrite.length) return `Unknown operation ${unknownWrite.join(', ')} (--allow-write); the document's operations are: ${ids.join(', ')}.`;
  return { profiles, only: selection.only?.filter(known) };
}
