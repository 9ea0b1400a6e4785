/**
 * A plugin's part in the contract suite: the rules and conventions of one API that its document
 * states only in prose, added through the same registries as the built-in checks and phases. The
 * suite knows no plugin by name; a run is given the plugins to apply (the CLI and the library
 * apply the Petstore's to the bundled document, and to another only when asked with --plugin).
 * The whole plugin, mock part included, is one object (src/plugins/plugin.ts).
 */
import type { CheckId } from './check-id.js';
import type { Check } from './checks/check.js';
import type { Phase } from './phases/phase.js';
import type { CreatePreparation } from './phases/records.js';

export interface ContractPart {
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

declare const sealed: unique symbol;

/**
 * A contract part as the published types name it. Its checks and phases work with the suite's
 * own context, whose shape is not public yet, so the package's own plugins make it
 * (`sealContractPart`) and a plugin of one's own has a mock part only, for now.
 */
export interface SealedContractPart {
  readonly [sealed]: true;
}

/** A part made by the package, behind the published types' seal. */
export function sealContractPart(part: ContractPart): SealedContractPart {
  return part as unknown as SealedContractPart;
}

/** What the suite reads of a plugin. */
export interface ContractPlugin {
  name: string;
  /** One line for --help and the report. */
  description: string;
  /** Loads its part in the suite (loaded when a run asks: a mock in a page never loads the suite's code). */
  contract?: () => Promise<SealedContractPart>;
}

/** A plugin of the run with its contract part loaded. */
export interface LoadedPlugin {
  name: string;
  part: ContractPart;
}

/** Loads the contract part of each plugin (none for a plugin without one). */
export async function loadContractParts(plugins: readonly ContractPlugin[]): Promise<LoadedPlugin[]> {
  return Promise.all(plugins.map(async ({ name, contract }) => ({ name, part: contract ? ((await contract()) as unknown as ContractPart) : {} })));
}
