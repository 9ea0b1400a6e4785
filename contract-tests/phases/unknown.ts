/**
 * unknown_resource: every item operation that declares 404 answers 404 for a key no record has.
 */
import type { Phase } from './phase.js';
import { pathParams, refusedChangesNothing } from './phase.js';
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
      const key = missingKey(ctx, collection);
      const read = ctx.operation(collection, 'read');
      if (op.method !== 'get' && read && (await ctx.request(read, { label: `check that ${collection.keyParam} ${String(key)} is free`, params: pathParams(ctx, read, { [collection.keyParam]: key }), intent: 'unknown' })).status !== 404) {
        ctx.skip('unknown_resource', op, `the key the suite picked (${String(key)}) names a record: it changes nothing it did not create`);
        continue;
      }
      await refusedChangesNothing(ctx, targets, op, 'unknown_resource', () =>
        ctx.request(op, {
          label: `${collection.keyParam} ${String(key)}, which no record has`,
          params: pathParams(ctx, op, { [collection.keyParam]: key }),
          body: ctx.validBody(op),
          intent: 'unknown',
          purpose: { check: 'unknown_resource', kind: 'unknown-key', param: collection.keyParam },
        }),
        'all',
      );
    }
  },
};
