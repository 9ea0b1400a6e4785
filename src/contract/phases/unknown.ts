/**
 * unknown_resource: every item operation that declares 404 answers 404 for a key no record has.
 */
import type { Phase } from './phase.js';
import { freeItemParams, notSafe, refusedChangesNothing, validBodyFor } from './phase.js';
import { pathParams } from './records.js';
import { missingKey } from './records.js';

export const unknownPhase: Phase = {
  name: 'unknown resources',
  checks: ['unknown_resource'],
  changesState: false,
  async run(ctx, targets) {
    for (const op of ctx.operations) {
      const collection = ctx.collections.find((c) => c.itemPath === op.path);
      if (!collection) {
        ctx.skip('unknown_resource', op, 'not an operation on one record of a collection the suite recognised');
        continue;
      }
      if (!op.responses.some((r) => r.status === '404')) {
        ctx.skip('unknown_resource', op, 'the operation declares no 404');
        continue;
      }
      if (ctx.options.readOnly && op.method !== 'get') {
        ctx.skip('unknown_resource', op, '--read-only: the request would change state if the record existed');
        continue;
      }
      // A write is aimed only at a key a read showed free: it changes nothing the suite did not create.
      const params = op.method === 'get' ? { ...pathParams(ctx, op), ...(await targets.params(op)), [collection.keyParam]: missingKey(ctx, collection) } : await freeItemParams(ctx, targets, op, collection);
      if (!params) {
        ctx.skip('unknown_resource', op, 'no key the suite could show free (no read of the record to check it, or the key it picked names a record)');
        continue;
      }
      if (notSafe(ctx, op, params, 'unknown_resource')) continue;
      const key = params[collection.keyParam];
      const body = await validBodyFor(ctx, targets, op);
      await refusedChangesNothing(ctx, targets, op, 'unknown_resource', () =>
        ctx.request(op, {
          label: `${collection.keyParam} ${String(key)}, which no record has`,
          params,
          body,
          intent: 'unknown',
          purpose: { check: 'unknown_resource', kind: 'unknown-key', param: collection.keyParam },
        }),
        'all',
      );
    }
  },
};
