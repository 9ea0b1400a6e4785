/**
 * negative_data_rejection: for every operation, each way its input can be wrong is refused.
 * Body: not JSON, no Content-Type, a required field missing, a wrong type, a value outside the
 * enum, a number or a length out of bounds, a size over the limit the document states.
 * Parameters: wrong type, out of bounds, outside the enum; a JSON-encoded one also not JSON, JSON
 * of the wrong type, a property breaking its schema. Each case breaks one rule of an otherwise
 * valid request (its references point at records that exist), aimed at the suite's own record,
 * and is sent only once the document's validator finds that rule broken there (see
 * mutations.ts: another property or branch is tried, else the fault is skipped and said).
 *
 * Each case carries the client errors that fit its fault (400 or 422; 404 too for a path
 * parameter; 415 for the media type; 413 for the size); the check judges the answer by the one
 * status rule (checks/status-rule.ts).
 */
import { branchesOf } from '../../openapi/operations/schema-properties.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { jsonMediaType } from '../../core/media-type.js';
import { breaks } from '../confirmation.js';
import type { RequestSpec } from '../compose-request.js';
import type { ContractContext } from '../context.js';
import { requestSchema } from '../request-bodies.js';
import { bodyMutations, oversized, parameterMutations, type Family, type Mutation } from './mutations.js';
import type { Phase } from './phase.js';
import { notSafe, refusedChangesNothing, shownFree, validBodyFor } from './phase.js';

type Row = Record<string, unknown>;

/**
 * Valid bodies to break: the phase's, then, for a `oneOf`/`anyOf` body, one drawn from each
 * branch, with the first one's references and key (they name records that exist).
 */
function validBodies(ctx: ContractContext, op: Operation, valid: Row | undefined): Row[] {
  const schema = requestSchema(op);
  if (!valid || !schema || typeof valid !== 'object' || Array.isArray(valid)) return valid ? [valid] : [];
  const binding = ctx.binding(op);
  const names = [...(binding?.keyFromBody ? [binding.collection.keyProperty] : []), ...(binding?.collection.references.map((r) => r.property) ?? [])];
  const pinned = Object.fromEntries(names.filter((name) => name in valid).map((name) => [name, valid[name]]));
  const others = branchesOf(schema).map((branch) => ctx.bodies.valid(op, {}, pinned, branch));
  return [valid, ...others.filter((body): body is Row => body !== undefined && ctx.bodies.isValid(op, body))];
}

/** The request a mutation makes of an otherwise valid one. */
function specOf(mutation: Mutation, params: Row, valid: Row | undefined): RequestSpec {
  return {
    label: mutation.label,
    params: mutation.params ?? params,
    query: mutation.query,
    body: mutation.rawBody === undefined ? (mutation.body ?? valid) : undefined,
    rawBody: mutation.rawBody,
    headers: mutation.headers,
    intent: 'invalid',
    breaks: mutation.breaks,
  };
}

/** The first candidate of a family the document's validator finds breaking its rule, or why there is none. */
async function confirmed(ctx: ContractContext, op: Operation, family: Family, params: Row, valid: Row | undefined): Promise<Mutation | string> {
  for (const candidate of family.candidates) {
    if (breaks(await ctx.problems(op, specOf(candidate, params, valid)), candidate.breaks)) return candidate;
  }
  return `no case of ${family.what} that the document's validator confirms (${family.candidates.length} tried: the rule does not hold where the suite broke it)`;
}

export const negativePhase: Phase = {
  name: 'negative data',
  checks: ['negative_data_rejection'],
  changesState: false,
  async run(ctx, targets) {
    for (const op of ctx.operations) {
      if (ctx.options.readOnly && op.method !== 'get') {
        ctx.skip('negative_data_rejection', op, '--read-only: the request would change state if the server accepted it');
        continue;
      }
      const params = await targets.params(op);
      if (!params) {
        ctx.skip('negative_data_rejection', op, 'no record to aim at');
        continue;
      }
      // A server that accepted the bad input would change the record it aims at: the suite's own, or none is sent.
      if (notSafe(ctx, op, params, 'negative_data_rejection')) continue;
      const valid = await validBodyFor(ctx, targets, op);
      const media = jsonMediaType(Object.keys(op.requestBody?.content ?? {}));
      const schema = requestSchema(op);
      const families = [
        ...(media ? bodyMutations(schema, validBodies(ctx, op, valid), ctx.binding(op)?.collection.keyProperty, media) : []),
        ...parameterMutations(ctx, op, params),
        ...(media ? oversized(ctx, op, valid, schema, media) : []),
      ];
      if (families.length === 0) ctx.skip('negative_data_rejection', op, 'it takes no input the suite can break (no JSON body, no constrained parameter)');
      for (const family of families) {
        const mutation = await confirmed(ctx, op, family, params, valid);
        if (typeof mutation === 'string') {
          ctx.confirmation.refused({ operation: `${op.method.toUpperCase()} ${op.path}`, label: family.what, reason: mutation });
          ctx.skip('negative_data_rejection', op, mutation);
          continue;
        }
        // A broken path parameter of a write names no record of the suite's: sent only once a read shows no record has it.
        if (mutation.params && !(await shownFree(ctx, op, mutation.params, mutation.breaks))) {
          ctx.skip('negative_data_rejection', op, `${mutation.label}: not sent, as no read showed that no record has that key`);
          continue;
        }
        await refusedChangesNothing(ctx, targets, op, 'negative_data_rejection', () => ctx.request(op, {
          ...specOf(mutation, params, valid),
          // A record the suite could not find may be answered 404 as well.
          fits: targets.guessed(params) ? [...mutation.fits, 404] : mutation.fits,
          purpose: { check: 'negative_data_rejection', kind: 'invalid-input' },
        }));
      }
    }
  },
};
