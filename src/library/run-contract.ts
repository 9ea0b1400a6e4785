/**
 * `runContract` for programs and test runners: the contract suite against a running server (or
 * any `fetch`, such as a mock's), returning the structured report the CLI prints.
 */
import { loadDocument } from '../openapi/document/load-document.js';
import type { ContractReport } from '../contract/contract-report.js';
import { ContractSetupError, runContract as run } from '../contract/run-contract.js';
import type { ContractSettings } from '../contract/context.js';
import { selectRun } from '../contract/select.js';
import { BUNDLED_SPEC } from '../core/bundled.js';
import { PLUGINS } from '../plugins/index.js';
import type { ContractPlugin, LoadedPlugin } from '../contract/plugin.js';
import type { LoadedDocument } from '../openapi/document/document.js';
import type { CheckId } from '../contract/check-id.js';

export interface RunContractOptions extends ContractSettings {
  /** The OpenAPI document: a file path, an http(s) URL, or the document itself (default: the bundled Petstore document). */
  spec?: string | URL | object;
  /**
   * Plugins whose contract parts are added: by name (`'petstore'`), or whole (the same `Plugin` a
   * mock is given). Default: `['petstore']` for the bundled document, none otherwise; `['none']` for none.
   */
  plugins?: Array<string | ContractPlugin>;
  /** Only these checks (ids as the CLI's `--only`). */
  only?: string[];
  /** Only these operations (operation ids). */
  operations?: string[];
  /** Gaps of the document fail the run too. */
  strict?: boolean;
  /** The whole run's limit in milliseconds: past it nothing more is sent, the clean-up still runs, the rest is skipped. */
  timeoutMs?: number;
  /** Compare the first page of every list before and after the run (default true; false for a server others write to meanwhile). */
  harmCheck?: boolean;
  /** A local document may refer to URLs (`$ref: https://...`). Default false: local files only; a URL's document refers only to its own origin. */
  allowRemoteRefs?: boolean;
}

/**
 * @example
 * import { runContract } from 'petstore-mock-kit';
 * const report = await runContract({ baseUrl: 'http://127.0.0.1:8080', token: process.env.API_TOKEN });
 * if (!report.conforms) console.log(report.failures);
 * @throws ContractSetupError when nothing can be checked: an unknown plugin, check or operation, an unreachable server, refused credentials.
 */
export async function runContract(options: RunContractOptions): Promise<ContractReport> {
  const { document, plugins, only, settings } = await prepareContract(options);
  return run({ ...settings, document, plugins, only });
}

/**
 * The document loaded and the plugins and checks selected, before anything is sent: what
 * `runContract` runs, and what `describeContract` (vitest.ts) names its tests from.
 * @throws ContractSetupError for an unknown plugin, check or operation.
 */
export async function prepareContract(options: RunContractOptions): Promise<{ document: LoadedDocument; plugins: LoadedPlugin[]; only?: CheckId[]; settings: Omit<RunContractOptions, 'spec' | 'plugins' | 'allowRemoteRefs'> }> {
  const { spec, plugins: names, allowRemoteRefs, ...settings } = options;
  const bundled = spec === undefined;
  const document = await loadDocument(bundled ? BUNDLED_SPEC : spec instanceof URL ? spec.href : spec, { allowRemoteRefs });
  const selected = await selectRun({ plugins: names, only: options.only, operations: options.operations, allowWrites: options.allowWrites }, document, bundled, PLUGINS);
  if (typeof selected === 'string') throw new ContractSetupError(selected);
  return { document, plugins: selected.plugins, only: selected.only, settings };
}
