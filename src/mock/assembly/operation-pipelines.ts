/**
 * One pipeline per operation, compiled once: its authenticator, its request validator (on first
 * use), its action (on a collection's state, or the document's answer), its error and scenario
 * responders, wired by handleOperation. What they share is made here once: the chaos settings,
 * the scenario Faker, the clock.
 */
import type { ValidateFunction } from 'ajv';
import { compileCrudAction } from '../actions/crud.js';
import type { ApiError } from '../../core/api-error.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { createFaker } from '../../openapi/generate/create-faker.js';
import { createGenerator } from '../../openapi/generate/from-schema.js';
import { handleOperation, type OperationParts } from '../handle-operation.js';
import type { Cors } from '../middleware/cors.js';
import type { MockState } from './create-state.js';
import type { CrudBinding } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { Action } from '../pipeline/exchange.js';
import type { MockParts } from '../registries/extension.js';
import { compileErrorResponder } from '../respond/error-response.js';
import { compileConformer, compileStaticAction, staticAnswers } from '../respond/static-response.js';
import { encoderFor } from '../respond/body-encoders.js';
import type { SelfCheck } from '../respond/self-check.js';
import type { HonoRoute } from '../routing/hono-path.js';
import { createChaos } from '../scenarios/chaos.js';
import { compileScenarioResponder } from '../scenarios/force-response.js';
import { compileAuthenticator } from '../security/authenticate.js';
import { SESSION_RESTARTED_HEADER } from '../../state/sessions.js';
import type { AjvCore } from '../../openapi/validation/ajv-instance.js';
import type { SchemaConverter } from '../../openapi/validation/to-json-schema.js';
import { compileRequestValidator, type RequestValidator } from '../../openapi/validation/validate-request.js';

export interface PipelineOptions {
  parts: MockParts;
  state: MockState;
  bindings: ReadonlyMap<string, CrudBinding>;
  basePath: string;
  /** Who may call: the keys, the realm of a challenge. */
  auth: { apiKeys: string[]; realm: string };
  ajv: AjvCore;
  converter: SchemaConverter;
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  maxBodyBytes: number;
  seed: number;
  delay?: [number, number];
  errorRate?: number;
  now: () => number;
  random: () => number;
  cors: Cors;
  record: OperationParts['record'];
  reader: OperationParts['reader'];
  writable?: () => ApiError | undefined;
  warn: (message: string) => void;
  /** The mock runs behind a reverse proxy: its `X-Forwarded-*` say where clients reach it. */
  trustProxy?: boolean;
  /** Checks every answer against the document before it leaves (`selfCheck: true`). */
  selfCheck?: SelfCheck;
  /** The dereferenced document, whose examples shape generated values (as the state's generator). */
  document?: unknown;
  /** Each operation's request validator, compiled once and shared (with the docs page's try-it); by default compiled here on first use. */
  requestValidator?: (operation: Operation) => RequestValidator;
}

/** @returns what mountRoutes calls for each operation: the handler of its route. */
export function operationPipelines(options: PipelineOptions): (operation: Operation, route: HonoRoute) => ReturnType<typeof handleOperation> {
  const { parts, state, bindings, basePath, responseValidator, now, warn, maxBodyBytes } = options;
  const { generate, sessions, storeFor } = state;
  const auth = { ...options.auth, schemes: parts.securitySchemes };
  const compileCtx = { ajv: options.ajv, converter: options.converter, warn, maxBodyBytes, decoders: parts.bodyDecoders };
  const chaos = createChaos({ delay: options.delay, errorRate: options.errorRate, seed: options.seed });
  const scenarioFaker = createFaker();
  const generateScenario = createGenerator(scenarioFaker, { document: options.document });
  const forceContext = {
    generateSeeded: (schema: SchemaObject, n: number, hints?: { propertyName?: string }) => {
      scenarioFaker.seed(n);
      return generateScenario(schema, hints);
    },
    responseValidator,
    realm: auth.realm,
    freshSeed: () => Math.floor(options.random() * 2 ** 31),
    canWrite: (essence: string) => encoderFor(parts.bodyEncoders, essence) !== undefined,
  };
  const staticContext = { generate, responseValidator, warn, encoders: parts.bodyEncoders };
  // A write whose declared answer is not the record (a DELETE that answers `{}`) answers what fits it.
  // Its answer, like a static one, does not depend on the order operations are compiled in.
  const conform = (operation: Operation, status: number, record: SchemaObject) => compileConformer(operation, status, record, staticContext, state.reseedGenerator);
  const actionFor = (operation: Operation): Action => {
    const binding = bindings.get(operation.id);
    if (binding) return compileCrudAction(operation, binding, { basePath, rule: parts.rules.for(operation.id), now, generate, conform, warn, ...state.records });
    state.reseedGenerator(); // a static answer does not depend on the order operations are compiled in
    // Another media type, asked for by Accept, is made on its first request from a generator seeded for it.
    const alternate = () => {
      let n = 0;
      return { generate: (schema: SchemaObject, hints?: { propertyName?: string }) => forceContext.generateSeeded(schema, options.seed + n++, hints), responseValidator, warn, encoders: parts.bodyEncoders };
    };
    return compileStaticAction(operation, staticAnswers(operation, staticContext, alternate), staticContext);
  };
  return (operation, route) =>
    handleOperation({
      operation,
      readParams: route.params,
      storeFor,
      authenticate: compileAuthenticator(operation, auth),
      preferDirectives: parts.preferDirectives,
      // Compiled on first use: a large document starts without compiling 1,800 validators (GitHub's: about 1.5 s).
      validate: onFirstUse(() => options.requestValidator?.(operation) ?? compileRequestValidator(operation, compileCtx)),
      action: actionFor(operation),
      encoders: parts.bodyEncoders,
      verify: options.selfCheck && ((response, undeclared) => options.selfCheck!.check(operation, response, undeclared)),
      respondError: compileErrorResponder(operation, { generate, responseValidator }),
      force: compileScenarioResponder(operation, forceContext),
      chaos,
      cors: options.cors.headers,
      record: options.record,
      sessionNotice: (target) => (sessions.takeRestart(target) ? { [SESSION_RESTARTED_HEADER]: 'evicted' } : undefined),
      writable: options.writable,
      now,
      // Credentials are checked before the size: an anonymous oversized request gets 401.
      maxBodyBytes,
      reader: options.reader,
      clientBase: { basePath, trustProxy: options.trustProxy },
    });
}

/** A function made when it is first called, then kept. */
function onFirstUse<A extends unknown[], R>(make: () => (...args: A) => R): (...args: A) => R {
  let made: ((...args: A) => R) | undefined;
  return (...args) => (made ??= make())(...args);
}
