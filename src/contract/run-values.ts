/**
 * The values a run of the suite sends: generated from the schemas (seeded, so a seed sends the
 * same), drawn for a parameter from what the server has shown (the suite's own records, the keys
 * its lists answered with), and checked by the document's request validator, a few draws each.
 */
import type { Faker } from '@faker-js/faker';
import type { ValidateFunction } from 'ajv';
import type { DocumentObject } from '../openapi/document/objects.js';
import type { ParameterSpec, SchemaObject } from '../openapi/document/schema.js';
import { createFaker } from '../openapi/generate/create-faker.js';
import { createGenerator } from '../openapi/generate/from-schema.js';
import type { Collection, CrudBinding } from '../openapi/operations/collection.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { Exchange } from './case.js';
import { ChosenKeys } from './chosen-keys.js';
import { listItems } from './list-items.js';
import type { RunMarker } from './marker.js';
import type { OwnRecords } from './own-records.js';
import { parameterValue, type ValueSources } from './parameter-value.js';
import { RequestBodies } from './request-bodies.js';

export interface RunValuesOptions {
  document: DocumentObject;
  seed: number;
  operations: Operation[];
  /** The collections the suite works on (addressable.ts). */
  collections: Collection[];
  binding: (op: Operation) => CrudBinding | undefined;
  own: OwnRecords;
  marker: RunMarker;
  requestValidator: (schema: SchemaObject) => ValidateFunction | undefined;
}

/** @example const values = new RunValues({ document, seed: 1, operations, collections, binding, own, marker, requestValidator }); values.validValue({ type: 'integer', minimum: 1 }) */
export class RunValues {
  readonly faker: Faker;
  readonly generate: (schema: SchemaObject, hints?: { propertyName?: string; collection?: string }) => unknown;
  /** Values from a schema alone, with no example of the rest of the document (parameters, keys no record has). */
  readonly generateOwn: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
  /** Fresh keys for creates whose body carries a key the client must choose (see chosen-keys.ts). */
  readonly keys: ChosenKeys;
  /** Valid request bodies, made safe and confirmed by the document's schemas (see request-bodies.ts). */
  readonly bodies: RequestBodies;

  constructor(private readonly options: RunValuesOptions) {
    const { requestValidator, operations, binding, marker } = options;
    this.faker = createFaker();
    this.faker.seed(options.seed);
    this.generate = createGenerator(this.faker, { document: options.document });
    this.generateOwn = createGenerator(this.faker);
    this.keys = new ChosenKeys({
      marker,
      accepts: (schema, value) => requestValidator(schema)?.(value) !== false,
      generate: this.generate,
      keyParameter: (c) => operations.find((op) => op.path === c.itemPath)?.parameters.find((p) => p.in === 'path' && p.name === c.keyParam)?.schema,
    });
    this.bodies = new RequestBodies({ generate: this.generate, validator: requestValidator, binding, marker, keys: this.keys });
    this.sources.collections = options.collections;
  }

  /** Notes the keys a list answered with (a 2xx of a list the document describes). */
  noteShownKeys(exchange: Exchange): void {
    const binding = this.options.binding(exchange.case.operation);
    if (binding?.action !== 'list' || exchange.status < 200 || exchange.status >= 300 || binding.collection.scopeParams.length) return;
    const keys = this.shownKeys.get(binding.collection) ?? [];
    for (const item of listItems(binding.collection, exchange.json)) {
      const key = item?.[binding.collection.keyProperty];
      if (keys.length < 20 && key !== undefined && key !== null && !keys.some((k) => String(k) === String(key))) keys.push(key);
    }
    this.shownKeys.set(binding.collection, keys);
  }

  /**
   * The value of a parameter a valid request sends: from the operation itself and what the server
   * has shown (see parameter-value.ts), a few draws until its schema accepts one.
   */
  parameterValue(op: Operation, parameter: ParameterSpec): unknown {
    const validate = this.options.requestValidator(parameter.schema);
    let value: unknown;
    for (let draw = 0; draw < 10; draw++) {
      value = parameterValue(this.sources, op, parameter);
      if (!validate || validate(value)) break;
    }
    return value;
  }

  private readonly sources: ValueSources = {
    collections: [],
    binding: (op) => this.options.binding(op),
    existingKeys: (collection) => [...this.options.own.keys(collection), ...(this.shownKeys.get(collection) ?? [])],
    generateOwn: (schema, propertyName) => this.generateOwn(schema, { propertyName }),
    accepts: (schema, value) => this.options.requestValidator(schema)?.(value) !== false,
  };

  /** Keys of records the lists the suite read showed (at most 20 per collection): records that exist, for filters that refer to them. */
  private readonly shownKeys = new Map<Collection, unknown[]>();

  /** A value its schema accepts (a few draws), or the last drawn when none is known to be. */
  validValue(schema: SchemaObject, propertyName?: string): unknown {
    const validate = this.options.requestValidator(schema);
    let value: unknown;
    for (let draw = 0; draw < 10; draw++) {
      value = this.generate(schema, { propertyName });
      if (!validate || validate(value)) break;
    }
    return value;
  }
}
