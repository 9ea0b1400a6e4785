/**
 * The mock's values for the try-it panel (try-it-values.ts) put in the page's copy of the
 * document, where Swagger UI reads its starting values from: as the example of each path
 * parameter they name, per operation, and of each property that refers to another collection
 * (`categoryId`), wherever it stands (request bodies, and the examples of responses). Real keys
 * win over an example the document wrote (an id it made up is a 404 here); a parameter's named
 * `examples` are kept, after the mock's, which comes first and is the one filled in. And the
 * requests made of them (try-it-requests.ts): the values of the required parameters the records
 * leave open, each operation's body as its media type's example, and, in the description of an
 * operation the mock would refuse whatever the page starts from, why.
 */
import type { DocumentObject, MediaTypeObject, OperationObject, ParameterObject, PathItemObject, RequestBodyObject } from '../../openapi/document/objects.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { isJsonObject } from '../../core/json-object.js';
import { HTTP_METHODS } from '../../openapi/operations/operation.js';
import { operationKey } from './operation-key.js';
import { followRef } from './follow-ref.js';
import { eachSchemaSlot } from './schema-slots.js';
import type { TryItValues } from './try-it-values.js';

/** @example addTryItValues(doc, { parameters: { 'delete /pets/{petId}': { petId: 4 } }, references: { categoryId: 1 } }) */
export function addTryItValues(doc: DocumentObject, values: TryItValues): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!isJsonObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const key = operationKey(method, path);
      for (const [name, value] of Object.entries(values.parameters[key] ?? {})) setParameterExample(doc, item, operation, 'path', name, value);
      for (const input of values.inputs?.[key] ?? []) setParameterExample(doc, item, operation, input.in, input.name, input.value);
      const body = values.bodies?.[key];
      if (body) setBodyExample(doc, operation, body.mediaType, body.value);
      const why = values.unconfirmed?.[key];
      if (why !== undefined) noteUnconfirmed(operation, why);
    }
  }
  eachSchemaSlot(doc, (slot) => {
    if (slot.name === undefined || !Object.hasOwn(values.references, slot.name)) return;
    const { examples: _examples, ...schema } = followRef(doc, slot.schema);
    if (isScalar(schema)) slot.replace({ ...schema, example: values.references[slot.name] });
  });
}

/**
 * The operation's own copy of the parameter (declared on it or on its path, by reference or
 * not), with the value as its example: Swagger UI takes an operation's parameter over its path's.
 */
function setParameterExample(doc: DocumentObject, item: PathItemObject, operation: OperationObject, location: string, name: string, value: unknown): void {
  const named = (parameter: ParameterObject) => followRef(doc, parameter).name === name && followRef(doc, parameter).in === location;
  const own: ParameterObject[] = Array.isArray(operation.parameters) ? operation.parameters : (operation.parameters = []);
  const index = own.findIndex(named);
  const declared = index >= 0 ? own[index] : (Array.isArray(item.parameters) ? item.parameters : []).find(named);
  if (!declared) return;
  const parameter = { ...followRef(doc, declared) } as ParameterObject;
  if (isJsonObject(parameter.examples)) parameter.examples = { mock: { summary: 'A record of this mock', value }, ...parameter.examples };
  else parameter.example = value;
  if (index >= 0) own[index] = parameter;
  else own.push(parameter);
}

/**
 * The body as the example of the operation's own copy of its request body, where Swagger UI's
 * try-it panel starts from it: a JSON body as the media type's example (first among its named
 * examples, which Swagger UI would take over it); a form's fields as their properties' examples
 * (Swagger UI fills each field in from its property).
 */
function setBodyExample(doc: DocumentObject, operation: OperationObject, mediaType: string, value: unknown): void {
  const requestBody = followRef(doc, operation.requestBody as RequestBodyObject | undefined);
  const content = isJsonObject(requestBody.content) ? requestBody.content : undefined;
  const media = content?.[mediaType];
  if (!content || !isJsonObject(media)) return;
  const copy: MediaTypeObject = { ...followRef(doc, media as MediaTypeObject) };
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(mediaType)) {
    const schema = followRef(doc, copy.schema as SchemaObject | undefined);
    if (!isJsonObject(schema.properties) || !isJsonObject(value)) return;
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, Object.hasOwn(value, name) ? { ...followRef(doc, property as SchemaObject), example: value[name] } : property]));
    copy.schema = { ...schema, properties };
  } else if (isJsonObject(copy.examples)) {
    copy.examples = { mock: { summary: 'A body this mock accepts', value }, ...copy.examples };
  } else {
    copy.example = value;
  }
  operation.requestBody = { ...requestBody, content: { ...content, [mediaType]: copy } };
}

/** Says, in the operation's description (shown when it is opened), why try-it starts from a request the mock may refuse. */
function noteUnconfirmed(operation: OperationObject, why: string): void {
  const note = `**Try it out:** ${why}.`;
  operation.description = typeof operation.description === 'string' && operation.description ? `${operation.description}\n\n${note}` : note;
}

/** A schema for one value (not an object or a list). */
function isScalar(schema: SchemaObject): boolean {
  const types: unknown[] = [schema.type].flat();
  return !types.includes('object') && !types.includes('array') && schema.properties === undefined && schema.items === undefined;
}
