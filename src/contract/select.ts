/**
 * The plugins, checks and operations of a run, checked against what exists: a typo is an error,
 * never a green run over nothing. Shared by the CLI (`contract`) and the library (`runContract`),
 * which give the plugins they know by name.
 */
import type { LoadedDocument } from '../openapi/document/document.js';
import type { CheckId } from './check-id.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import { checkRegistry } from './checks/index.js';
import { loadContractParts, type ContractPlugin, type LoadedPlugin } from './plugin.js';

export interface Selection {
  /** Plugins, by name (`--plugin`, `none` for none) or given whole; undefined means the default: the Petstore's for the bundled document, none otherwise. */
  plugins?: readonly (string | ContractPlugin)[];
  only?: readonly string[];
  operations?: readonly string[];
  /** Operation ids whose writes the caller vouches for (`all` for every one). */
  allowWrites?: readonly string[];
}

/**
 * @param known the plugins that may be named, by name (the default for the bundled document is `petstore`)
 * @returns the plugins of the run (their contract parts loaded) and the checks it is narrowed to, or a sentence naming what is unknown and what exists.
 */
export async function selectRun(selection: Selection, document: LoadedDocument, bundled: boolean, known: Readonly<Record<string, ContractPlugin>>): Promise<{ plugins: LoadedPlugin[]; only?: CheckId[] } | string> {
  const given = selection.plugins ?? (bundled ? ['petstore'] : []);
  const unknownPlugin = given.filter((plugin) => typeof plugin === 'string' && plugin !== 'none' && !Object.hasOwn(known, plugin));
  if (unknownPlugin.length) return `Unknown plugin ${unknownPlugin.join(', ')}; the plugins are: ${Object.keys(known).join(', ')} (or none).`;
  const plugins = await loadContractParts(given.filter((plugin) => plugin !== 'none').map((plugin) => (typeof plugin === 'string' ? known[plugin] : plugin)));
  const checks = [...checkRegistry(plugins).keys()];
  const isCheck = (id: string): id is CheckId => (checks as string[]).includes(id);
  const unknownCheck = selection.only?.filter((id) => !isCheck(id)) ?? [];
  if (unknownCheck.length) return `Unknown check ${unknownCheck.join(', ')}; the checks are: ${checks.join(', ')}.`;
  const ids = buildOperations(document.api).map((op) => op.id);
  const unknownOperation = selection.operations?.filter((id) => !ids.includes(id)) ?? [];
  if (unknownOperation.length) return `Unknown operation ${unknownOperation.join(', ')}; the document's operations are: ${ids.join(', ')}.`;
  const unknownWrite = selection.allowWrites?.filter((id) => id !== 'all' && !ids.includes(id)) ?? [];
  if (unknownWrite.length) return `Unknown operation ${unknownWrite.join(', ')} (--allow-write); the document's operations are: ${ids.join(', ')}.`;
  return { plugins, only: selection.only?.filter(isCheck) };
}
