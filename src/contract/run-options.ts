/**
 * What a run of the contract suite is given: the context's options (the document, the server, the
 * token, the phases and checks) and the run's own (plugins, strictness, its time, the checks on records of others).
 */
import type { ContractOptions } from './context.js';
import type { LoadedPlugin } from './plugin.js';

export interface RunOptions extends ContractOptions {
  /** Plugins whose checks, phases and preparations are added, their parts loaded (the CLI gives the Petstore's for the bundled document). */
  plugins?: LoadedPlugin[];
  /** Gaps of the document fail the run too. */
  strict?: boolean;
  /** The whole run's time (default: none): past it, no phase sends more, the clean-up still runs. */
  timeoutMs?: number;
  /**
   * Compare the first page of every list before and after the run (default true). Turn it off for
   * a server others write to during the run: their changes would read as the suite's.
   */
  harmCheck?: boolean;
  /** Records the suite created and could not delete are a warning, not a failure of the run (`--allow-leftovers`). */
  allowLeftovers?: boolean;
}
