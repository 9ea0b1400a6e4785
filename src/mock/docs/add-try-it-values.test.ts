/**
 * The mock's values in the page's copy of the document: path parameters get them as examples on
 * the operation they were given for (a path-level or referenced parameter copied onto it), and
 * properties that refer to a collection get its key wherever they stand.
 */
import { describe, expect, it } from 'vitest';
import { addTryItValues } from './add-try-it-values.js';

function document() {
  return {
    paths: {
      '/pets/{petId}': {
        parameters: [{ $ref: '#/components/parameters/PetId' }],
        get: { responses: {} },
        delete: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' }, examples: { old: { value: 42 } } }], responses: {} },
        put: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } }, responses: {} },
      },
    },
    components: {
      parameters: { PetId: { name: 'petId', in: 'path', required: true, description: 'The pet.', schema: { $ref: '#/components/schemas/Id' } } },
      schemas: {
        Id: { type: 'integer', minimum: 1, maximum: 99 },
        NewPet: { type: 'object', properties: { categoryId: { $ref: '#/components/schemas/Id' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
        Owner: { type: 'object', properties: { categoryId: { type: 'string', example: 'made-up' }, category: { type: 'object', properties: {} } } },
      },
    },
  };
}

describe('addTryItValues', () => {
  it('copies the path parameter onto the operation, with the value as its example; the one the document had stays as written', () => {
    const doc: any = document();
    addTryItValues(doc, { parameters: { 'get /pets/{petId}': { petId: 4 } }, references: {} });
    expect(doc.paths['/pets/{petId}'].get.parameters).toEqual([{ name: 'petId', in: 'path', required: true, description: 'The pet.', schema: { $ref: '#/components/schemas/Id' }, example: 4 }]);
    expect(doc.paths['/pets/{petId}'].parameters).toEqual([{ $ref: '#/components/parameters/PetId' }]);
    expect(doc.components.parameters.PetId.example).toBeUndefined();
  });

  it("puts the mock's value first among a parameter's named examples", () => {
    const doc: any = document();
    addTryItValues(doc, { parameters: { 'delete /pets/{petId}': { petId: 7 } }, references: {} });
    const [parameter] = doc.paths['/pets/{petId}'].delete.parameters;
    expect(Object.entries(parameter.examples)).toEqual([['mock', { summary: 'A record of this mock', value: 7 }], ['old', { value: 42 }]]);
    expect(parameter.example).toBeUndefined();
  });

  it('gives every property named as a reference a real key in its place, over a made-up example; objects and lists are left', () => {
    const doc: any = document();
    addTryItValues(doc, { parameters: {}, references: { categoryId: 3, tags: 1, category: 1 } });
    expect(doc.components.schemas.NewPet.properties.categoryId).toEqual({ type: 'integer', minimum: 1, maximum: 99, example: 3 });
    expect(doc.components.schemas.Owner.properties.categoryId).toEqual({ type: 'string', example: 3 });
    expect(doc.components.schemas.NewPet.properties.tags).toEqual({ type: 'array', items: { type: 'string' } });
    expect(doc.components.schemas.Owner.properties.category).toEqual({ type: 'object', properties: {} });
    expect(doc.components.schemas.Id.example).toBeUndefined();
  });

  it('puts the body as the example of the operation\'s own copy of its media type, first among named examples; a form\'s fields as their examples', () => {
    const doc: any = document();
    doc.paths['/pets/{petId}'].post = { requestBody: { content: { 'application/json': { schema: { type: 'object' }, examples: { doc: { value: { a: 1 } } } } } }, responses: {} };
    doc.paths['/pets/{petId}'].patch = { requestBody: { $ref: '#/components/requestBodies/Form' }, responses: {} };
    doc.components.requestBodies = { Form: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { Name: { type: 'string' }, Size: { type: 'integer' } } } } } } };
    addTryItValues(doc, {
      parameters: {},
      references: {},
      bodies: {
        'put /pets/{petId}': { mediaType: 'application/json', value: { name: 'Rex' } },
        'post /pets/{petId}': { mediaType: 'application/json', value: { a: 2 } },
        'patch /pets/{petId}': { mediaType: 'application/x-www-form-urlencoded', value: { Name: 'Rex' } },
      },
    });
    const item = doc.paths['/pets/{petId}'];
    expect(item.put.requestBody.content['application/json']).toEqual({ schema: { $ref: '#/components/schemas/NewPet' }, example: { name: 'Rex' } });
    expect(Object.keys(item.post.requestBody.content['application/json'].examples)).toEqual(['mock', 'doc']);
    expect(item.post.requestBody.content['application/json'].examples.mock.value).toEqual({ a: 2 });
    expect(item.patch.requestBody.content['application/x-www-form-urlencoded'].schema.properties).toEqual({ Name: { type: 'string', example: 'Rex' }, Size: { type: 'integer' } });
    // The shared request body is left as written.
    expect(doc.components.requestBodies.Form.content['application/x-www-form-urlencoded'].schema.properties.Name).toEqual({ type: 'string' });
  });

  it('gives a required query or header parameter its value, and says in the description why an operation has no request the mock accepts', () => {
    const doc: any = document();
    doc.paths['/pets/{petId}'].get.parameters = [{ name: 'when', in: 'query', required: true, schema: { type: 'string', format: 'date' } }];
    doc.paths['/pets/{petId}'].get.description = 'Reads a pet.';
    addTryItValues(doc, { parameters: {}, references: {}, inputs: { 'get /pets/{petId}': [{ in: 'query', name: 'when', value: '2024-05-01' }] }, unconfirmed: { 'get /pets/{petId}': 'no body could be built from the document', 'put /pets/{petId}': 'a file' } });
    const item = doc.paths['/pets/{petId}'];
    expect(item.get.parameters[0].example).toBe('2024-05-01');
    expect(item.get.description).toBe('Reads a pet.\n\n**Try it out:** no body could be built from the document.');
    expect(item.put.description).toBe('**Try it out:** a file.');
  });
});
