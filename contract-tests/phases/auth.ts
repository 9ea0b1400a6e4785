/**
 * auth_enforced: every secured operation, asked without credentials, with an unknown key and
 * with another scheme, answers 401 with a WWW-Authenticate challenge. Mutating operations are
 * aimed at a missing record, so a server that ignores auth harms nothing (and answers 404, not 401).
 */
import type { Operation } from '../../src/operations/operation.js';
import type { ContractContext } from '../context.js';
import type { Phase } from './phase.js';
import { isItemOperation, pathParams, requiredQuery } from './phase.js';
import { missingKey } from './records.js';

function variants(op: Operation): Array<{ label: string; headers: Record<string, string> }> {
  const bearer = op.security[0]?.some(({ scheme }) => scheme.type !== 'apiKey' && !/^basic$/i.test(String(scheme.scheme)));
  const list = [
    { label: 'no credentials', headers: {} },
    { label: 'an unknown key', headers: unknownKey(op) },
  ];
  if (bearer) list.push({ label: 'another scheme (Basic)', headers: { Authorization: `Basic ${Buffer.from('contract:suite').toString('base64')}` } });
  return list;
}

function unknownKey(op: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { scheme } of op.security[0] ?? []) {
    if (scheme.type === 'apiKey' && scheme.in === 'header') headers[scheme.name] = 'contract-suite-unknown-key';
    else if (scheme.type !== 'apiKey') headers.Authorization = /^basic$/i.test(String(scheme.scheme)) ? `Basic ${Buffer.from('unknown:unknown').toString('base64')}` : 'Bearer contract-suite-unknown-key';
  }
  return headers;
}

function secured(op: Operation): boolean {
  return op.security.length > 0 && op.security.every((alternative) => alternative.length > 0);
}

export const authPhase: Phase = {
  name: 'auth',
  checks: ['auth_enforced'],
  changesState: false,
  async run(ctx: ContractContext, targets) {
    for (const op of ctx.operations.filter(secured)) {
      const safe = op.method === 'get' || op.method === 'head';
      if (ctx.options.readOnly && !safe) continue;
      const collection = ctx.collections.find((c) => c.itemPath === op.path);
      const params = safe || !isItemOperation(ctx, op) ? await targets.params(op) : pathParams(ctx, op, { [collection!.keyParam]: missingKey(ctx, collection!) });
      if (!params) continue;
      for (const variant of variants(op)) {
        await ctx.request(op, {
          label: variant.label,
          params,
          query: requiredQuery(ctx, op),
          body: ctx.validBody(op),
          anonymous: true,
          headers: variant.headers,
          expect: { check: 'auth_enforced', status: [401], header: 'WWW-Authenticate', documented: `401 with WWW-Authenticate for ${variant.label}` },
        });
      }
    }
  },
};
