/**
 * auth_enforced: every secured operation is asked without credentials and with an unknown key
 * (and, for a bearer scheme, with another scheme); the check (checks/refusal-checks.ts) says
 * which answers refuse them. Mutating operations are aimed at a key a read showed free, or at the
 * suite's own records, so a server that ignores auth harms nothing (and answers 404, not 401);
 * other writes are not sent.
 */
import type { Operation } from '../../openapi/operations/operation.js';
import type { ContractContext } from '../context.js';
import type { Phase } from './phase.js';
import { freeItemParams, notSafe, validBodyFor } from './phase.js';

const UNKNOWN_KEY = 'contract-suite-unknown-key';

function variants(ctx: ContractContext, op: Operation): Array<{ label: string; headers: Record<string, string>; query: string }> {
  const unknown = ctx.credentials(op, UNKNOWN_KEY);
  const list = [
    { label: 'no credentials', headers: {}, query: '' },
    { label: 'an unknown key', ...unknown },
  ];
  if (bearer(op)) list.push({ label: 'another scheme (Basic)', headers: { Authorization: `Basic ${Buffer.from('contract:suite').toString('base64')}` }, query: '' });
  return list;
}

const bearer = (op: Operation) => op.security[0]?.some(({ scheme }) => scheme.type !== 'apiKey' && !(scheme.type === 'http' && /^basic$/i.test(scheme.scheme)));
const httpScheme = (op: Operation) => op.security[0]?.some(({ scheme }) => scheme.type === 'http');

/** Every alternative needs credentials (an empty alternative, `{}`, makes them optional). */
function secured(op: Operation): boolean {
  return op.security.length > 0 && op.security.every((alternative) => alternative.length > 0);
}

export const authPhase: Phase = {
  name: 'auth',
  checks: ['auth_enforced'],
  changesState: false,
  async run(ctx: ContractContext, targets) {
    for (const op of ctx.operations) {
      if (!secured(op)) {
        ctx.skip('auth_enforced', op, op.security.length ? 'its security is optional (an empty alternative)' : 'the operation declares no security');
        continue;
      }
      const safe = op.method === 'get' || op.method === 'head';
      if (ctx.options.readOnly && !safe) {
        ctx.skip('auth_enforced', op, '--read-only: the request would change state if the server let it through');
        continue;
      }
      // A write to one record is aimed at a key shown free: a server that ignored the credentials would change nothing.
      const collection = ctx.collections.find((c) => c.itemPath === op.path);
      const params = safe || !collection ? await targets.params(op) : await freeItemParams(ctx, targets, op, collection);
      if (!params) {
        ctx.skip('auth_enforced', op, safe || !collection ? 'no record to aim at' : 'no key the suite could show free to aim at (no read of the record to check it)');
        continue;
      }
      if (notSafe(ctx, op, params, 'auth_enforced')) continue;
      const challenge = Boolean(httpScheme(op));
      for (const variant of variants(ctx, op)) {
        await ctx.request(op, {
          label: variant.label,
          params,
          query: variant.query,
          body: await validBodyFor(ctx, targets, op),
          anonymous: true,
          headers: variant.headers,
          intent: 'unauthenticated',
          purpose: { check: 'auth_enforced', credentials: variant.label, challenge },
        });
      }
    }
  },
};
