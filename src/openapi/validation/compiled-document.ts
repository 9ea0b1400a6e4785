/**
 * One document, compiled once for every product that reads it: its operations, the collections
 * they act on, one Ajv instance and schema converter, the request and response validators of its
 * schemas, each operation's request validator and the response checker. The mock, the contract
 * suite, the proxy and the CLI's banner take one of these instead of building their own, so a
 * process that runs two of them (`contract --dry-run`, `serve --proxy` with --record) compiles
 * each schema once.
 *
 * Every part is built on first use: a banner that needs no validator, or a mock whose operations
 * are not called yet, pays nothing for them.
 */
import type { ValidateFunction } from 'ajv';
import type { LoadedDocument } from '../document/document.js';
import type { SchemaObject } from '../document/schema.js';
import type { Problem } from '../../core/problem.js';
import type { Registry } from '../../core/registry.js';
import { buildOperations } from '../operations/build-operations.js';
import { inferCollections } from '../operations/infer-collections.js';
import { type Collection, type CrudBinding } from '../operations/collection.js';
import type { Operation } from '../operations/operation.js';
import { createAjv, type AjvCore } from './ajv-instance.js';
import type { BodyDecoder } from './body-decoders.js';
import { schemaCompiler } from './compile-schema.js';
import { requestJudge, type PlainRequest } from './judge-request.js';
import { SchemaConverter } from './to-json-schema.js';
import { compileRequestValidator, type RequestValidator } from './validate-request.js';
import { createResponseChecker, type ReceivedResponse } from './validate-response.js';

/** How requests are read where a product validates them: the body size cap and the body decoders (default: the built-ins). */
export interface RequestReading {
  maxBodyBytes: number;
  decoders?: Registry<BodyDecoder>;
}

/** What compiling reads of a loaded document: its objects and its dialect. */
export type CompilableDocument = Pick<LoadedDocument, 'api' | 'dialect'>;

export interface CompiledDocument {
  document: CompilableDocument;
  /** The document's operations, flattened once (buildOperations). */
  readonly operations: Operation[];
  /** The collections the operations act on, and how each operation acts (inferCollections). */
  readonly collections: Collection[];
  readonly bindings: Map<string, CrudBinding>;
  /** The one Ajv instance of the document, and the converter from its schemas to JSON Schema. */
  readonly ajv: AjvCore;
  readonly converter: SchemaConverter;
  /** The validator of a schema read in a request (compiled once per schema), or undefined when Ajv refuses it. */
  readonly requestValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  /** The validator of a schema read in a response (compiled once per schema), or undefined when Ajv refuses it. */
  readonly responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  /** What an answer breaks of its operation's responses (status, media type, body, headers). */
  readonly checkResponse: (operation: Operation, response: ReceivedResponse) => Problem[];
  /** Each operation's request validator for one way of reading requests, compiled on its first use, once per operation. */
  requestValidators(reading: RequestReading): (operation: Operation) => RequestValidator;
  /** The problems of a request held as plain data (judge-request.ts), with the same per-operation validators. */
  requestJudge(reading: RequestReading): (operation: Operation, request: PlainRequest) => Promise<Problem[]>;
  /** Hears the warnings of compiling (a schema Ajv refuses) from now on; returns how to stop hearing them. */
  listen(warn: (message: string) => void): () => void;
}

export interface CompileOptions {
  /** Told of every schema Ajv refuses (also `listen`). */
  warn?: (message: string) => void;
}

/**
 * @example
 * const compiled = compileDocument(await loadDocument('spec/openapi.yaml'));
 * buildMock(compiled.document, { compiled }); runContract({ document: compiled.document, compiled, baseUrl });
 */
export function compileDocument(document: CompilableDocument, options: CompileOptions = {}): CompiledDocument {
  const listeners = new Set<(message: string) => void>();
  if (options.warn) listeners.add(options.warn);
  const warn = (message: string) => {
    for (const listener of listeners) listener(message);
  };
  const once = <T>(make: () => T): (() => T) => {
    let made: { value: T } | undefined;
    return () => (made ??= { value: make() }).value;
  };

  const operations = once(() => buildOperations(document.api));
  const inferred = once(() => inferCollections(operations()));
  const ajv = once(() => createAjv(document.dialect));
  const converter = once(() => new SchemaConverter(document.api, ajv(), document.dialect, warn));
  const requestValidator = once(() => schemaCompiler(ajv(), converter(), 'request', warn));
  const responseValidator = once(() => schemaCompiler(ajv(), converter(), 'response', warn));
  const checkResponse = once(() => createResponseChecker(ajv(), converter(), responseValidator()));
  // One cache of per-operation validators per way of reading (the mock's decoders are its plugins').
  const readings = new Map<string, Map<Registry<BodyDecoder> | undefined, (operation: Operation) => RequestValidator>>();
  const requestValidators = ({ maxBodyBytes, decoders }: RequestReading) => {
    const byDecoders = readings.get(String(maxBodyBytes)) ?? readings.set(String(maxBodyBytes), new Map()).get(String(maxBodyBytes))!;
    let validators = byDecoders.get(decoders);
    if (!validators) {
      const ctx = { ajv: ajv(), converter: converter(), warn, maxBodyBytes, decoders };
      const compiled = new Map<Operation, RequestValidator>();
      validators = (op) => compiled.get(op) ?? compiled.set(op, compileRequestValidator(op, ctx)).get(op)!;
      byDecoders.set(decoders, validators);
    }
    return validators;
  };

  return {
    document,
    get operations() {
      return operations();
    },
    get collections() {
      return inferred().collections;
    },
    get bindings() {
      return inferred().bindings;
    },
    get ajv() {
      return ajv();
    },
    get converter() {
      return converter();
    },
    get requestValidator() {
      return requestValidator();
    },
    get responseValidator() {
      return responseValidator();
    },
    get checkResponse() {
      return checkResponse();
    },
    requestValidators,
    requestJudge: (reading) => requestJudge({ ajv: ajv(), converter: converter(), warn, ...reading }, requestValidators(reading)),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
