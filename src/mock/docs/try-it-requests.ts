/**
 * The requests the docs page's try-it panel starts from, made so the mock accepts them, for any
 * document: besides the records' keys (try-it-values.ts), a value for each required parameter the
 * records do not give (a query's `origin`, a header's `x-api-key`, a path's `{provider}`), and a
 * body for each operation that takes one in JSON or as a form: the document's example where it is
 * valid, else a sample (try-it-sample.ts) with one branch of each `oneOf` chosen and its
 * discriminator's value set, with optional properties, then without, then the other branches,
 * then generated bodies. Each is confirmed by the operation's request validator, the mock's own,
 * before it is offered; when none is, the page says so (`unconfirmed`) rather than offering a
 * body the mock refuses without a word. A create whose key the client chooses gets a key no
 * record has; a body that names the record it updates (`PUT /pet` with the pet) names one.
 */
import type { Faker } from '@faker-js/faker';
import type { Problem } from '../../core/problem.js';
import { fnv1a } from '../../core/fnv.js';
import { isJsonMediaType } from '../../core/media-type.js';
import type { ParameterSpec, SchemaObject } from '../../openapi/document/schema.js';
import { createFaker } from '../../openapi/generate/create-faker.js';
import { createGenerator } from '../../openapi/generate/from-schema.js';
import type { CrudBinding } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { StateStore } from '../../state/state-store.js';
import type { PlainRequest } from '../../openapi/validation/judge-request.js';
import { operationKey } from './operation-key.js';
import { sampleOf } from './try-it-sample.js';
import type { RecordKey, TryItInput, TryItValues } from './try-it-values.js';

export interface TryItContext {
  /** The (dereferenced) document. */
  document: object;
  /** The operation's request validator, as the mock applies it: the problems of a request, none when it is valid. */
  judge: (operation: Operation, request: PlainRequest) => Promise<Problem[]>;
  /** What the mock does for an operation on a collection (a create, a replace), if anything. */
  binding: (operation: Operation) => CrudBinding | undefined;
  /** The shared state (a create's key must be free; an update names a record). */
  store: StateStore;
}

/** Bodies tried before generated ones: a sample with optional properties, without, per branch. */
const SAMPLE_BRANCHES = 4;
/** Generated bodies tried when no sample is accepted. */
const DRAWS = 6;
/** Generated values tried for a required parameter. */
const PARAMETER_DRAWS = 4;

/**
 * Adds to `values` (the records' keys) the inputs, bodies, and the operations left without a
 * request the mock accepts, for every operation: each confirmed with `context.judge`. What is made
 * for an operation is kept while the records it depends on stay (its path's keys, the references'
 * keys, a create's key still free): a page of a document of 2,000 operations is made once.
 *
 * @example const requests = tryItRequester(context); await requests(operations, tryItValues(operations, collections, store)) // .bodies['post /projects/{projectKey}/issues'].value.issueType === 'bug'
 */
export function tryItRequester(context: TryItContext): (operations: readonly Operation[], values: TryItValues) => Promise<TryItValues> {
  const faker = createFaker();
  const generate = createGenerator(faker, { document: context.document });
  const made = new Map<Operation, { signature: string; made: Made }>();
  return async (operations, values) => {
    const out: TryItValues = { ...values, inputs: {}, bodies: {}, unconfirmed: {} };
    const references = JSON.stringify(values.references);
    for (const operation of operations) {
      const key = operationKey(operation.method, operation.path);
      const signature = `${JSON.stringify(values.parameters[key] ?? {})} ${references} ${JSON.stringify(namedRecord(operation, context) ?? null)}`;
      let entry = made.get(operation);
      if (!entry || entry.signature !== signature || !stillFree(operation, entry.made, context)) {
        // The same values on every page for the same state: a generator seeded by the operation.
        faker.seed(fnv1a(key));
        made.set(operation, (entry = { signature, made: await requestOf(operation, values, context, { faker, generate }) }));
      }
      if (entry.made.inputs.length > 0) out.inputs![key] = entry.made.inputs;
      if (entry.made.body) out.bodies![key] = entry.made.body;
      if (entry.made.unconfirmed) out.unconfirmed![key] = entry.made.unconfirmed;
    }
    return out;
  };
}

/** A create's body whose key the client chooses names no record yet (one created since would make it a 409). */
function stillFree(operation: Operation, made: Made, context: TryItContext): boolean {
  const binding = context.binding(operation);
  const body = made.body?.value;
  if (binding?.action !== 'create' || !isPlainObject(body) || !binding.collection.keyProperty || !Object.hasOwn(body, binding.collection.keyProperty)) return true;
  return context.store.collection(binding.collection.name).where(binding.collection.keyProperty, body[binding.collection.keyProperty]).length === 0;
}

/** The key of the record an update that names it in its body (`PUT /pet`) is given: the first record's. */
function namedRecord(operation: Operation, context: TryItContext): unknown {
  const binding = context.binding(operation);
  if (!binding?.keyFromBody || (binding.action !== 'replace' && binding.action !== 'merge') || !binding.collection.keyProperty) return undefined;
  const first = context.store.collection(binding.collection.name).all().next();
  return first.done ? undefined : first.value[binding.collection.keyProperty];
}

interface Drawing {
  faker: Faker;
  generate: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
}

interface Made {
  inputs: TryItInput[];
  body?: { mediaType: string; value: unknown };
  unconfirmed?: string;
}

async function requestOf(operation: Operation, values: TryItValues, context: TryItContext, drawing: Drawing): Promise<Made> {
  const key = operationKey(operation.method, operation.path);
  const fromRecords = values.parameters[key] ?? {};
  const leaf = (schema: SchemaObject, propertyName?: string) => drawing.generate(schema, { propertyName });
  const sample = (schema: SchemaObject, branch = 0, optional = true, distinguish = false) => sampleOf(schema, { document: context.document, references: values.references, branch, optional, leaf, distinguish });

  // The required parameters the records leave open, each with its candidates: the document's words, a sample, draws.
  const open = operation.parameters.filter((p) => p.required && p.in !== 'cookie' && !(p.in === 'path' && Object.hasOwn(fromRecords, p.name)));
  const candidates = new Map<ParameterSpec, unknown[]>(open.map((p) => [p, distinct([sample(p.schema), ...Array.from({ length: PARAMETER_DRAWS }, () => drawing.generate(p.schema, { propertyName: p.name }))])]));
  const chosen = new Map<ParameterSpec, unknown>(open.map((p) => [p, candidates.get(p)![0]]));

  const media = Object.keys(operation.requestBody?.content ?? {})[0];
  const schema = media === undefined ? undefined : operation.requestBody!.content[media]?.schema;
  const encode = media === undefined ? undefined : encoderFor(media);
  const bodies = encode && schema ? bodyCandidates(operation, media!, schema, values, context, drawing, sample) : [];

  const requestWith = (body: unknown): PlainRequest => plainRequest(operation, fromRecords, chosen, encode && body !== undefined ? { mediaType: media!, text: encode(body) } : undefined);
  let body: unknown;
  let firstProblems: Problem[] | undefined;
  for (const candidate of bodies) {
    const problems = (await context.judge(operation, requestWith(candidate))).filter(isBodyProblem);
    if (problems.length === 0) {
      body = candidate;
      break;
    }
    firstProblems ??= problems;
  }
  // Then each parameter's candidates, in turn, until the validator finds nothing wrong with it.
  for (const parameter of open) {
    for (const candidate of candidates.get(parameter)!) {
      chosen.set(parameter, candidate);
      const problems = await context.judge(operation, requestWith(body));
      if (!problems.some((p) => p.path === `${parameter.in}.${parameter.name}` || p.path.startsWith(`${parameter.in}.${parameter.name}.`))) break;
    }
  }
  const inputs = open.filter((p) => chosen.get(p) !== undefined).map((p) => ({ in: p.in, name: p.name, value: chosen.get(p) }));
  const why: string[] = [];
  // The records' keys the path takes: none, or none the path's schema accepts (a document that says two things).
  const missing = missingRecord(operation, fromRecords, context);
  if (missing) why.push(missing);
  const refused = (await context.judge(operation, requestWith(body))).filter((p) => Object.keys(fromRecords).some((name) => p.path === `path.${name}`));
  if (refused.length > 0) why.push(`no key of the mock's records is valid here (${describe(refused)})`);
  if (media !== undefined && body === undefined) {
    if (!encode) why.push(`a ${media} body is not made here: give one of your own`);
    else if (firstProblems?.length) why.push(`no body built from the document was accepted by the mock's validator (${describe(firstProblems)})`);
    else why.push('no body could be built from the document');
  }
  return { inputs, ...(body !== undefined ? { body: { mediaType: media!, value: body } } : {}), ...(why.length > 0 ? { unconfirmed: why.join('; ') } : {}) };
}

/** Why an operation on one record has none to name: the mock holds none of its collection (where it would look). */
function missingRecord(operation: Operation, fromRecords: Record<string, RecordKey>, context: TryItContext): string | undefined {
  const binding = context.binding(operation);
  if (!binding || binding.keyFromBody || !['read', 'replace', 'merge', 'delete'].includes(binding.action)) return undefined;
  const { collection } = binding;
  if (!collection.keyParam || Object.hasOwn(fromRecords, collection.keyParam)) return undefined;
  return `the mock holds no ${collection.name} record for {${collection.keyParam}}: create one first`;
}

function describe(problems: Problem[]): string {
  return problems.slice(0, 2).map((p) => `${p.path}: ${p.message}`).join('; ');
}

/** In order: the document's example, samples per branch (with optional properties, then without), generated bodies; keys made right. */
function bodyCandidates(operation: Operation, media: string, schema: SchemaObject, values: TryItValues, context: TryItContext, drawing: Drawing, sample: (schema: SchemaObject, branch?: number, optional?: boolean, distinguish?: boolean) => unknown): unknown[] {
  const declared = operation.requestBody!.content[media];
  const written: unknown[] = [];
  if (declared?.example !== undefined) written.push(declared.example);
  const named = declared?.examples && typeof declared.examples === 'object' ? Object.values(declared.examples as Record<string, { value?: unknown }>) : [];
  if (named[0]?.value !== undefined) written.push(named[0].value);
  const samples: unknown[] = [];
  for (let branch = 0; branch < SAMPLE_BRANCHES; branch++) samples.push(sample(schema, branch, true), sample(schema, branch, false));
  // Branches that overlap (a oneOf without a discriminator): the same, each told from the others.
  for (let branch = 0; branch < SAMPLE_BRANCHES; branch++) samples.push(sample(schema, branch, true, true), sample(schema, branch, false, true));
  const draws = Array.from({ length: DRAWS }, () => drawing.generate(schema));
  const fix = keyFixer(operation, context, drawing);
  return distinct([...written.map((value) => withReferences(value, values.references)), ...samples, ...draws.map((value) => withReferences(value, values.references))].map(fix));
}

/** A body's top-level properties that refer to a collection, given the mock's keys (an example's `categoryId: 42` names no category here). */
function withReferences(value: unknown, references: Readonly<Record<string, RecordKey>>): unknown {
  if (!isPlainObject(value)) return value;
  const out = { ...value };
  for (const [name, key] of Object.entries(references)) if (Object.hasOwn(out, name) && (typeof out[name] !== 'object' || out[name] === null)) out[name] = key;
  return out;
}

/**
 * A create's key the client chooses, made free (another record's would be a 409); an update
 * naming its record in the body (`PUT /pet`), given a record's key (another would be a 404).
 */
function keyFixer(operation: Operation, context: TryItContext, drawing: Drawing): (body: unknown) => unknown {
  const binding = context.binding(operation);
  const collection = binding?.collection;
  if (!binding || !collection || collection.keyless || !collection.keyProperty) return (body) => body;
  const property = collection.keyProperty;
  const records = context.store.collection(collection.name);
  const named = namedRecord(operation, context);
  if (named !== undefined) return (body) => (isPlainObject(body) ? { ...body, [property]: named } : body);
  if (binding.action !== 'create') return (body) => body;
  const taken = (key: unknown) => records.where(property, key).length > 0;
  return (body) => {
    if (!isPlainObject(body) || !Object.hasOwn(body, property) || !taken(body[property])) return body;
    for (let i = 0; i < 10; i++) {
      const key = drawing.generate(collection.keySchema, { propertyName: property });
      if (key !== undefined && !taken(key)) return { ...body, [property]: key };
    }
    // The generator prefers the document's example, which may be the very key taken: an integer key then takes the one after the largest.
    const maximum = typeof collection.keySchema.maximum === 'number' ? collection.keySchema.maximum : Number.MAX_SAFE_INTEGER;
    const largest = Math.max(0, ...[...records.all()].map((r) => r[property]).filter((k): k is number => Number.isInteger(k)));
    const next = largest + 1;
    return (collection.keySchema.type === 'integer' || typeof body[property] === 'number') && next <= maximum ? { ...body, [property]: next } : body;
  };
}

/** How a value is sent as the media type, or undefined for one the page does not fill in (a file, XML). */
function encoderFor(media: string): ((value: unknown) => string) | undefined {
  const essence = media.split(';')[0].trim().toLowerCase();
  if (isJsonMediaType(essence) || essence === '*/*') return (value) => JSON.stringify(value);
  if (essence === 'application/x-www-form-urlencoded') return (value) => formText(value);
  return undefined;
}

/** An object as a form (`a=1&tags=x&tags=y`; nested objects as JSON text). */
function formText(value: unknown): string {
  const form = new URLSearchParams();
  if (!isPlainObject(value)) return '';
  for (const [name, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) form.append(name, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  }
  return form.toString();
}

/** The request the page would send: the records' keys and the chosen values in the path, the query and the headers. */
function plainRequest(operation: Operation, fromRecords: Record<string, RecordKey>, chosen: Map<ParameterSpec, unknown>, body?: { mediaType: string; text: string }): PlainRequest {
  const path: Record<string, string> = {};
  for (const [name, value] of Object.entries(fromRecords)) path[name] = String(value);
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const [parameter, value] of chosen) {
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value.map(text) : [text(value)];
    if (parameter.in === 'path') path[parameter.name] = items.join(',');
    else if (parameter.in === 'header') headers[parameter.name] = items.join(',');
    else if (parameter.in === 'query') {
      if (parameter.explode || items.length <= 1) for (const item of items) query.append(parameter.name, item);
      else query.append(parameter.name, items.join(parameter.style === 'spaceDelimited' ? ' ' : parameter.style === 'pipeDelimited' ? '|' : ','));
    }
  }
  if (body) headers['content-type'] = body.mediaType;
  return { path, query: query.toString(), headers, body: body?.text };
}

function text(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** A problem of the body (its schema, media type, JSON), not of a parameter. */
function isBodyProblem(problem: Problem): boolean {
  return !/^(path|query|header|cookie)\./.test(problem.path);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The values, each once (by JSON), undefined left out. */
function distinct(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    if (value === undefined) return false;
    const json = JSON.stringify(value);
    if (seen.has(json)) return false;
    seen.add(json);
    return true;
  });
}
