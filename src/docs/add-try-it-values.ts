/**
 * The mock's values for the try-it panel (try-it-values.ts) put in the page's copy of the
 * document, where Swagger UI reads its starting values from: as the example of each path
 * parameter they name, per operation, and of each property that refers to another collection
 * (`categoryId`), wherever it stands (request bodies, and the examples of responses). Real keys
 * win over an example the document wrote (an id it made up is a 404 here); a parameter's named
 * `examples` are kept, after the mock's, which comes first and is the one filled in.
 */
import type { DocumentObject, OperationObject, ParameterObject, PathItemObject } from '../document/objects.js';
import type { SchemaObject } from '../document/schema.js';
import { isJsonObject } from '../core/json-object.js';
import { HTTP_METHODS } from '../operations/operation.js';
import { operationKey } from './operation-key.js';
import { followRef } from './follow-ref.js';
import { eachSchemaSlot } from './schema-slots.js';
import type { RecordKey, TryItValues } from './try-it-values.js';

/** @example addTryItValues(doc, { parameters: { 'delete /pets/{petId}': { petId: 4 } }, references: { categoryId: 1 } }) */
export function addTryItValues(doc: DocumentObject, values: TryItValues): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!isJsonObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const given = values.parameters[operationKey(method, path)];
      for (const [name, value] of Object.entries(given ?? {})) setPathParameterExample(doc, item, operation, name, value);
    }
  }
  eachSchemaSlot(doc, (slot) => {
    if (slot.name === undefined || !Object.hasOwn(values.references, slot.name)) return;
    const { examples: _examples, ...schema } = followRef(doc, slot.schema);
    if (isScalar(schema)) slot.replace({ ...schema, example: values.references[slot.name] });
  });
}

/**
 * The operation's own copy of the path parameter (declared on it or on its path, by reference or
 * not), with the value as its example: Swagger UI takes an operation's parameter over its path's.
 */
function setPathParameterExample(doc: DocumentObject, item: PathItemObject, operation: OperationObject, name: string, value: RecordKey): void {
  const named = (parameter: ParameterObject) => followRef(doc, parameter).name === name && followRef(doc, parameter).in === 'path';
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

/** A schema for one value (not an object or a list). */
function isScalar(schema: SchemaObject): boolean {
  const types: unknown[] = [schema.type].flat();
  return !types.includes('object') && !types.includes('array') && schema.properties === undefined && schema.items === undefined;
}
