/**
 * The response a scenario forces, from the operation's declarations: a declared status only
 * (an undeclared one is a 400 that lists the declared ones), a named example of the document,
 * or a body generated freshly (`dynamic=true`) or from a seed (`seed=N`). A forced error is an
 * ApiError, so it gets the same Error body as a real one. Nothing here touches the state.
 */
import { reasonPhrase } from '../../core/status-text.js';
import type { ValidateFunction } from 'ajv';
import type { ActionResult } from '../pipeline/exchange.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { findResponse } from '../../openapi/operations/build-operations.js';
import type { Operation, ResponseSpec } from '../../openapi/operations/operation.js';
import { ApiError } from '../../core/api-error.js';
import { ownValue } from '../../core/own-property.js';
import { normalise } from '../respond/static-response.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { choose, representations, type CanWrite } from '../respond/negotiate.js';
import type { Scenario } from '../pipeline/exchange.js';

export interface ForceContext {
  /** Generates a value for a schema from a seed (the same seed, the same value). */
  generateSeeded: (schema: SchemaObject, seed: number, hints?: { propertyName?: string }) => unknown;
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  realm: string;
  /** Seed of a `dynamic=true` body. */
  freshSeed: () => number;
  /** Whether a body can be written as a media type other than JSON (default: `text/*` only). */
  canWrite?: CanWrite;
}

/**
 * @returns undefined when the scenario leaves the request to the normal, stateful flow. A forced
 * answer with a body is in the declared media type the request's `Accept` prefers (JSON without one).
 */
export function compileScenarioResponder(operation: Operation, ctx: ForceContext): (scenario: Scenario, accept?: string | null) => ActionResult | ApiError | undefined {
  const success = operation.responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0] ?? 200;
  const declared = operation.responses.map((r) => r.status).join(', ');
  const examples = operation.responses.flatMap((r) => Object.values(r.content).flatMap((m) => Object.keys(m.examples ?? {})));

  return (scenario, accept) => {
    const generated = scenario.dynamic || scenario.seed !== undefined;
    if (scenario.code === undefined && scenario.example === undefined && !generated) return undefined;
    let status = scenario.code;
    let response: ResponseSpec | undefined;
    if (status !== undefined) {
      response = findResponse(operation, status);
      if (!response) return new ApiError(400, 'SCENARIO_NOT_DECLARED', `Prefer code=${status}: ${operation.method.toUpperCase()} ${operation.path} declares ${declared}.`);
    } else if (scenario.example !== undefined) {
      response = [...operation.responses].sort((a, b) => Number(!/^2/.test(a.status)) - Number(!/^2/.test(b.status))).find((r) => Object.values(r.content).some((m) => ownValue(m.examples, scenario.example!)));
      if (!response) return unknownExample(operation, scenario.example, examples);
      status = /^\d{3}$/.test(response.status) ? Number(response.status) : success;
    } else {
      status = success;
      response = findResponse(operation, success);
    }
    if (status === success && scenario.example === undefined && !generated) return undefined; // the normal flow answers it
    if (status >= 400) return forcedError(operation, status, response, ctx.realm);
    return forcedResult(operation, status, response, scenario, ctx, examples, accept);
  };
}

function unknownExample(operation: Operation, name: string, examples: string[]): ApiError {
  const known = examples.length ? `its examples are ${examples.join(', ')}` : 'it has no named examples';
  return new ApiError(400, 'SCENARIO_NOT_DECLARED', `Prefer example=${name}: ${operation.method.toUpperCase()} ${operation.path} has no such example; ${known}.`);
}

function forcedError(operation: Operation, status: number, response: ResponseSpec | undefined, realm: string): ApiError {
  const code = (reasonPhrase(status) ?? 'Error').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  const headers: Record<string, string> = {};
  if (response && Object.keys(response.headers).some((h) => h.toLowerCase() === 'www-authenticate')) headers['WWW-Authenticate'] = `Bearer realm="${realm}"`;
  return new ApiError(status, code, `Forced by the request's scenario (code=${status}) on ${operation.method.toUpperCase()} ${operation.path}.`, undefined, headers);
}

function forcedResult(operation: Operation, status: number, response: ResponseSpec | undefined, scenario: Scenario, ctx: ForceContext, examples: string[], accept?: string | null): ActionResult | ApiError {
  const content = response?.content ?? {};
  const chosen = response && choose(representations(response, ctx.canWrite ?? ((essence) => essence.startsWith('text/'))), accept);
  const media = chosen?.key ?? Object.keys(content).find((m) => isJsonMediaType(m.toLowerCase())) ?? Object.keys(content)[0];
  let body: unknown;
  if (media) {
    const spec = content[media];
    if (scenario.example !== undefined) {
      const named = ownValue(spec.examples, scenario.example);
      if (!named) return unknownExample(operation, scenario.example, examples);
      body = normalise(named.value);
    } else {
      body = generateValid(spec.schema ?? {}, scenario.seed ?? (scenario.dynamic ? ctx.freshSeed() : 1), ctx);
    }
  }
  const headers: Record<string, string> = media ? { 'Content-Type': chosen?.type ?? (media.includes('*') ? 'application/json' : media) } : {};
  for (const [name, header] of Object.entries(response?.headers ?? {})) {
    if (!header.required) continue;
    // A total agrees with the list it counts; other required headers get a valid generated value.
    headers[name] = /^x-total-count$/i.test(name) && Array.isArray(body) ? String(body.length) : String(ctx.generateSeeded(header.schema, 1, { propertyName: name }));
  }
  return { status, body, headers };
}

function generateValid(schema: SchemaObject, seed: number, ctx: ForceContext): unknown {
  const validate = ctx.responseValidator(schema);
  let value: unknown;
  for (let attempt = 0; attempt < 8; attempt++) {
    value = ctx.generateSeeded(schema, seed + attempt);
    if (!validate || validate(value)) return value;
  }
  return value;
}
