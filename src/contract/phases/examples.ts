/**
 * Valid requests to every operation the other phases do not already cover: every GET (then once
 * with each of its optional query parameters, see optional-parameters.ts), and
 * (unless read-only) updates of the suite's own records and operations no collection explains.
 * A change is only ever aimed at a record the suite created (safety.ts): otherwise, the operation
 * is skipped with the reason.
 */
import { RESPONSE_CHECKS } from '../checks/index.js';
import type { Phase } from './phase.js';
import { sendOptionalParameters } from './optional-parameters.js';
import { pastRefusal } from './past-refusal.js';
import { notSafe, validRefsFor } from './phase.js';

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
      if (!params) {
        ctx.skip(RESPONSE_CHECKS, op, 'no record to aim a valid request at');
        continue;
      }
      if (notSafe(ctx, op, params, RESPONSE_CHECKS)) continue;
      const guessed = targets.guessed(params);
      const refs = await validRefsFor(ctx, targets, op);
      const body = ctx.bodies.valid(op, refs);
      if (!ctx.bodies.isValid(op, body)) {
        ctx.skip(RESPONSE_CHECKS, op, 'no body could be built that its schema is known to accept (the schema allows none, or does not compile)');
        continue;
      }
      const spec = { label: guessed ? 'a valid request to a record the suite could not find' : 'a valid request', params, body, intent: guessed ? 'guessed' as const : 'valid' as const };
      const exchange = await ctx.request(op, spec);
      // A valid write refused for a rule the document does not state: reported once, then other valid bodies.
      if (!safe && !guessed) await pastRefusal(ctx, op, spec, exchange, refs);
      await sendOptionalParameters(ctx, op, params, guessed ? 'guessed' : 'valid');
      // The token is also sent as each other way of authenticating the operation declares (an apiKey in a query parameter, a cookie, basic...).
      for (let alternative = 1; alternative < op.security.length && safe && !guessed; alternative++) {
        if (op.security[alternative].length === 0) continue;
        const how = op.security[alternative].map(({ scheme }) => (scheme.type === 'apiKey' ? `an apiKey in ${scheme.in} ${scheme.name}` : `${scheme.type} ${scheme.type === 'http' ? scheme.scheme : ''}`.trim())).join(' and ');
        await ctx.request(op, { label: `a valid request, authenticated with ${how}`, params, body, alternative });
      }
    }
  },
};
