/**
 * Valid requests that use a GET's optional query parameters, one parameter at a time: one request
 * each (three draws of a JSON-encoded one, whose values vary most: LoopBack's `filter`), each
 * confirmed valid by the document's validator before it is sent. The response checks judge the
 * answers: a server that honours `?filter={"fields":["desc"]}` by leaving out a property the
 * schema requires fails response_schema_conformance. A cursor is left out (only a page the server
 * gave names one), and so is a parameter that carries the credentials.
 */
import type { ParameterSpec } from '../../openapi/document/schema.js';
import type { Intent } from '../case.js';
import type { RequestSpec } from '../compose-request.js';
import type { ContractContext } from '../context.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { paginationOf } from '../../openapi/operations/pagination.js';
import { writeParameter } from '../write-parameter.js';

const ATTEMPTS = 5;

export async function sendOptionalParameters(ctx: ContractContext, op: Operation, params: Record<string, unknown>, intent: Intent): Promise<void> {
  if (op.method !== 'get') return;
  const cursor = paginationOf(op).cursor;
  const credentials = new Set(op.security.flatMap((alternative) => alternative.flatMap(({ scheme }) => (scheme.type === 'apiKey' && scheme.in === 'query' ? [scheme.name] : []))));
  for (const parameter of op.parameters.filter((p) => p.in === 'query' && !p.required && p !== cursor && !credentials.has(p.name))) {
    const draws = parameter.mediaType === undefined ? 1 : 3;
    for (let draw = 0; draw < draws; draw++) await ctx.request(op, await confirmedSpec(ctx, op, parameter, params, intent));
  }
}

/** A request with a value of the parameter the validator accepts (a few tries), or the last tried (then not sent, and said). */
async function confirmedSpec(ctx: ContractContext, op: Operation, parameter: ParameterSpec, params: Record<string, unknown>, intent: Intent): Promise<RequestSpec> {
  let spec: RequestSpec = { label: '', intent };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const query = writeParameter(parameter, ctx.parameterValue(op, parameter)).query;
    spec = { label: `a valid request with query.${parameter.name}`, params, query, intent };
    if ((await ctx.problems(op, spec)).length === 0) break;
  }
  return spec;
}
