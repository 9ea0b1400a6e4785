/**
 * Valid requests to every operation the other phases do not already cover: every GET, and
 * (unless read-only) updates of the suite's own records and operations no collection explains.
 */
import { RESPONSE_CHECKS } from '../checks/index.js';
import type { Phase } from './phase.js';
import { requiredQuery } from './phase.js';

export const examplesPhase: Phase = {
  name: 'examples',
  checks: RESPONSE_CHECKS,
  changesState: false,
  async run(ctx, targets) {
    for (const op of ctx.operations) {
      const action = ctx.binding(op)?.action;
      const safe = op.method === 'get' || op.method === 'head';
      if (!safe && (ctx.options.readOnly || action === 'create' || action === 'delete' || op.method === 'delete')) continue;
      const params = await targets.params(op);
      if (!params) continue;
      await ctx.request(op, { label: 'a valid request', params, query: requiredQuery(ctx, op), body: ctx.validBody(op) });
    }
  },
};
