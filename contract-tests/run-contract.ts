/**
 * Runs the contract suite against one implementation: phase by phase, every exchange judged by
 * the checks, the suite's own records deleted at the end.
 *
 * @example
 * const report = await runContract({ document, baseUrl: 'http://127.0.0.1:4010', token: 'petstore-demo-key' });
 * report.failures.length // 0 when the implementation conforms
 */
import { CHECK_IDS, type CheckId, type Failure } from './case.js';
import { ContractContext, type ContractOptions } from './context.js';
import { authPhase } from './phases/auth.js';
import { examplesPhase } from './phases/examples.js';
import { lifecyclePhase } from './phases/lifecycle.js';
import { negativePhase } from './phases/negative.js';
import { Targets, type Phase } from './phases/phase.js';
import { isPetstore, petstorePhase, petstorePreparations } from './phases/petstore.js';
import { unknownPhase } from './phases/unknown.js';

export const PHASES: Phase[] = [examplesPhase, authPhase, negativePhase, unknownPhase, lifecyclePhase, petstorePhase];

export interface CoverageRow {
  operationId: string;
  operation: string;
  status: string;
  exercised: boolean;
}

export interface ContractReport {
  failures: Failure[];
  requests: number;
  durationMs: number;
  checks: CheckId[];
  coverage: CoverageRow[];
}

/** The suite cannot judge a server that refuses its credentials: it stops instead of passing on 401s. */
export class ContractSetupError extends Error {
  override readonly name = 'ContractSetupError';
}

async function checkCredentials(ctx: ContractContext): Promise<void> {
  const probe = ctx.operations.find((op) => op.method === 'get' && !op.path.includes('{') && op.security.length > 0 && op.security.every((a) => a.length > 0));
  if (!probe) return;
  const exchange = await ctx.request(probe, { label: 'check that the token is accepted' });
  if (exchange.status === 401 || exchange.status === 403) {
    throw new ContractSetupError(`The server refused the credentials: ${probe.method.toUpperCase()} ${probe.path} answered ${exchange.status} with the token given (--token); nothing was checked.`);
  }
}

export async function runContract(options: ContractOptions): Promise<ContractReport> {
  const started = performance.now();
  const ctx = new ContractContext(options);
  await checkCredentials(ctx);
  const targets = new Targets(ctx, isPetstore(ctx) ? petstorePreparations : {});
  try {
    for (const phase of PHASES) {
      if (options.readOnly && phase.changesState) continue;
      // A phase runs when it feeds a selected check; response-level checks judge all traffic sent.
      if (!phase.checks.some((id) => ctx.selected(id))) continue;
      await phase.run(ctx, targets);
    }
  } finally {
    if (!options.readOnly) await ctx.cleanUp();
  }
  return {
    failures: ctx.failures,
    requests: ctx.exchanges.length,
    durationMs: performance.now() - started,
    checks: CHECK_IDS.filter((id) => ctx.selected(id)),
    coverage: coverage(ctx),
  };
}

/** Operation x declared status: was it received at least once? */
function coverage(ctx: ContractContext): CoverageRow[] {
  return ctx.operations
    .filter((op) => !ctx.options.operations || ctx.options.operations.includes(op.id))
    .flatMap((op) => {
      const received = [...(ctx.received.get(op.id) ?? [])];
      const explicit = new Set(op.responses.map((r) => r.status));
      return op.responses.map((r) => ({
        operationId: op.id,
        operation: `${op.method.toUpperCase()} ${op.path}`,
        status: r.status,
        exercised: received.some((s) =>
          r.status === String(s) ||
          (r.status.toUpperCase() === `${String(s)[0]}XX` && !explicit.has(String(s))) ||
          (r.status === 'default' && !explicit.has(String(s)) && !explicit.has(`${String(s)[0]}XX`)),
        ),
      }));
    });
}
