/**
 * The check x operation rows a run will report (its `outcomes`), known before anything is sent:
 * the same selection the run's results are built from (context.ts), so a test runner can name one
 * test per row at collection time and read each verdict from the report afterwards.
 */
import type { LoadedDocument } from '../openapi/document/document.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import type { CheckId } from './check-id.js';
import { checkRegistry } from './checks/index.js';
import type { LoadedPlugin } from './plugin.js';

export interface PlannedOutcome {
  check: CheckId;
  operationId: string;
  /** `GET /pets/{petId}` */
  operation: string;
}

/**
 * @example
 * plannedOutcomes(document, plugins, { only: ['status_code_conformance'] })
 * // [{ check: 'status_code_conformance', operationId: 'listPets', operation: 'GET /pets' }, ...]
 * @returns every selected check (the built-ins, then the plugins', in report order) for every operation in scope, operation by operation.
 */
export function plannedOutcomes(document: LoadedDocument, plugins: readonly LoadedPlugin[], { only, operations }: { only?: readonly CheckId[]; operations?: readonly string[] } = {}): PlannedOutcome[] {
  const checks = [...checkRegistry(plugins).keys()].filter((id) => !only || only.includes(id));
  return buildOperations(document.api)
    .filter((op) => !operations || operations.includes(op.id))
    .flatMap((op) => checks.map((check) => ({ check, operationId: op.id, operation: `${op.method.toUpperCase()} ${op.path}` })));
}
