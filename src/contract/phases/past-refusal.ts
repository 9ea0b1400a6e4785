/**
 * A valid write the server refused for a rule the document does not state (`priority must be
 * between 1 and 3` where any integer is allowed): the refusal is reported once, then other valid
 * bodies are sent (request-bodies.ts `others`: the fields the answer names first), so the
 * operation is still seen to succeed, and the kind that worked is kept for the rest of the run.
 */
import type { Operation } from '../../openapi/operations/operation.js';
import type { CheckId, Exchange } from '../case.js';
import type { RequestSpec } from '../compose-request.js';
import type { ContractContext } from '../context.js';

type Row = Record<string, unknown>;

/**
 * After `refused` (the answer to `spec`, a valid request with a JSON body), tries other valid
 * bodies, each a `retry` judged by no check of its own, until one is accepted. Then the refusal
 * (reported by `check`) becomes a gap of the document, and the accepted exchange and body are
 * returned; undefined when the refusal was no 3xx or 4xx, or nothing was accepted.
 */
export async function pastRefusal(ctx: ContractContext, op: Operation, spec: RequestSpec & { label: string }, refused: Exchange, refs: Row, overrides: Row = {}, check: CheckId = 'positive_data_acceptance'): Promise<{ exchange: Exchange; body: Row } | undefined> {
  if (!ctx.sent(refused) || refused.error || refused.status < 300 || refused.status >= 500 || !op.requestBody) return undefined;
  for (const variant of ctx.bodies.others(op, refs, overrides, { answer: refused.text })) {
    const exchange = await ctx.request(op, { ...spec, label: `${spec.label}, another valid body after a refusal (${variant.why})`, body: variant.body, intent: 'retry', purpose: undefined });
    if (exchange.error) return undefined; // no answer at all: another body would get none either
    if (exchange.status >= 300) continue;
    ctx.bodies.prefer(op, variant);
    ctx.unstatedRule(op, spec.label, `accepted with another valid body (${variant.why})`, check);
    return { exchange, body: variant.body };
  }
  return undefined;
}
