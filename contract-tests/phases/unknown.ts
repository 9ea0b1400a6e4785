/**
 * unknown_resource: every item operation that declares 404 answers 404 for a key no record has.
 */
import type { Phase } from './phase.js';
import { pathParams } from './phase.js';
import { missingKey } from './records.js';

export const unknownPhase: Phase = {
  name: 'unknown resources',
  checks: ['unknown_resource'],
  changesState: false,
  async run(ctx) {
    for (const collection of ctx.collections) {
      for (const op of ctx.operations.filter((o) => o.path === collection.itemPath && o.responses.some((r) => r.status === '404'))) {
        if (ctx.options.readOnly && op.method !== 'get') continue;
        const key = missingKey(ctx, collection);
        await ctx.request(op, {
          label: `${collection.keyParam} ${String(key)}, which no record has`,
          params: pathParams(ctx, op, { [collection.keyParam]: key }),
          body: ctx.validBody(op),
          expect: { check: 'unknown_resource', status: [404], documented: `404 for a ${collection.keyParam} no record has` },
        });
      }
    }
  },
};
