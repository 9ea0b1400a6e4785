import { describe, expect, it } from 'vitest';
import { loadDocument } from '../document/load-document.js';
import type { SchemaObject } from '../document/schema.js';
import type { PathItemObject } from '../document/objects.js';
import { ROOT } from '../../test-support/petstore.js';
import { buildOperations } from './build-operations.js';
import { inferCollections, keyPropertyOf } from './infer-collections.js';
import { unmappedReason } from './unmapped-reason.js';

describe('collections inferred from paths', () => {
  it('finds the record property a path parameter names: its own name, or without the singular of the collection', () => {
    expect(keyPropertyOf('petId', '/pets', ['id', 'name'])).toBe('id');
    expect(keyPropertyOf('petId', '/pets', ['petId', 'name'])).toBe('petId');
    expect(keyPropertyOf('projectKey', '/projects', ['key', 'name'])).toBe('key');
    expect(keyPropertyOf('issueNumber', '/projects/{projectKey}/issues', ['number', 'title'])).toBe('number');
    expect(keyPropertyOf('category_id', '/categories', ['id'])).toBe('id');
    expect(keyPropertyOf('slug', '/posts', ['title'])).toBe('id');
  });

  it('takes a collection path written with a trailing slash, and keys its records by the property the parameter names', async () => {
    const document = await loadDocument(`${ROOT}test/documents/projects-api.yaml`);
    const { collections, bindings } = inferCollections(buildOperations(document.api));
    expect(collections.map((c) => [c.name, c.path, c.itemPath, c.keyParam, c.keyProperty])).toEqual([['projects', '/projects/', '/projects/{projectKey}', 'projectKey', 'key']]);
    expect(Object.fromEntries([...bindings].map(([id, b]) => [id, b.action]))).toEqual({ listProjects: 'list', createProject: 'create', getProject: 'read', deleteProject: 'delete' });
  });

  it('finds references by the <singular>Id convention, and by the path parameter of another collection (projectKey)', () => {
    const Project = { type: 'object', properties: { key: { type: 'string' }, name: { type: 'string' } } };
    const Task = { type: 'object', properties: { id: { type: 'integer' }, projectKey: { type: 'string' }, categoryId: { type: 'integer' }, ownerName: { type: 'string' } } };
    const Category = { type: 'object', properties: { id: { type: 'integer' } } };
    const read = (id: string, param: string, schema: SchemaObject) => ({
      get: { operationId: id, parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } },
    });
    const api = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/projects/{projectKey}': read('getProject', 'projectKey', Project), '/tasks/{taskId}': read('getTask', 'taskId', Task), '/categories/{categoryId}': read('getCategory', 'categoryId', Category) } };
    const { collections } = inferCollections(buildOperations(api));
    expect(collections.find((c) => c.name === 'tasks')?.references).toEqual([
      { property: 'projectKey', collection: 'projects' },
      { property: 'categoryId', collection: 'categories' },
    ]);
  });

  it('finds references named after the model (`role`, `parent` of the same collection) when the key\'s type and format fit, and by a declared link', () => {
    const uuid = { type: 'string', format: 'uuid' };
    const Role = { type: 'object', properties: { id: uuid, name: { type: 'string' } } };
    const Folder = { type: 'object', properties: { id: uuid, role: uuid, parent: { ...uuid, nullable: true }, owner: { type: 'integer' }, label: { type: 'object' } } };
    const Label = { type: 'object', properties: { id: { type: 'integer' } } };
    const Owner = { type: 'object', properties: { id: uuid } };
    const read = (id: string, schema: SchemaObject, links?: Record<string, { operationId: string; parameters: Record<string, string> }>) => ({
      get: { operationId: id, parameters: [{ name: 'id', in: 'path', required: true, schema: uuid }], responses: { '200': { description: 'ok', content: { 'application/json': { schema } }, ...(links ? { links } : {}) } } },
    });
    const paths = { '/roles/{id}': read('getRole', Role), '/folders/{id}': read('getFolder', Folder), '/labels/{id}': read('getLabel', Label), '/owners/{id}': read('getOwner', Owner) };
    const api = (p: Record<string, PathItemObject>) => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: p });
    const referencesOf = (p: Record<string, PathItemObject>) => inferCollections(buildOperations(api(p))).collections.find((c) => c.name === 'folders')?.references;
    // `owner` is an integer where owners have uuid keys, `label` an object: neither points anywhere.
    expect(referencesOf(paths)).toEqual([
      { property: 'role', collection: 'roles' },
      { property: 'parent', collection: 'folders' },
    ]);
    // A link the document declares says what its name does not (and beats it).
    const linked = { ...paths, '/folders/{id}': read('getFolder', Folder, { keeper: { operationId: 'getOwner', parameters: { id: '$response.body#/role' } } }) };
    expect(referencesOf(linked)).toEqual([
      { property: 'role', collection: 'owners' },
      { property: 'parent', collection: 'folders' },
    ]);
  });

  it('binds a write on the collection path whose body names the key to that record, but not a bulk one (a `where`, or a count answered)', async () => {
    const document = await loadDocument(`${ROOT}test/documents/todos-api.yaml`);
    const { bindings } = inferCollections(buildOperations(document.api));
    expect(bindings.has('TodoController.updateAll')).toBe(false);
    expect(bindings.get('TodoController.updateTodo')?.action).toBe('merge');
    const counted = structuredClone(document.api);
    counted.paths!['/todos'].patch!.parameters = [];
    expect(inferCollections(buildOperations(counted)).bindings.has('TodoController.updateAll')).toBe(false);
    // The same write answering the record it changed is an update of that record (`PUT /pet` of Swagger's Petstore).
    counted.paths!['/todos'].patch!.responses!['200'].content!['application/json'].schema = counted.components!.schemas!.Todo;
    expect(inferCollections(buildOperations(counted)).bindings.get('TodoController.updateAll')).toMatchObject({ action: 'merge', keyFromBody: true });
  });

  it('finds collections with no item path: a list and a create of the same records, a 201 create, a list no collection holds', () => {
    const Loan = { type: 'object', properties: { id: { type: 'integer' }, due: { type: 'string' } } };
    const Note = { type: 'object', properties: { text: { type: 'string' } } };
    const Member = { type: 'object', properties: { id: { type: 'integer' } } };
    const Day = { type: 'object', properties: { day: { type: 'string' }, visits: { type: 'integer' } } };
    const ok = (schema: SchemaObject, status = '200') => ({ responses: { [status]: { description: 'ok', content: { 'application/json': { schema } } } } });
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
    const api = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/members': { get: { operationId: 'listMembers', ...ok({ type: 'array', items: Member }) } },
        '/members/{memberId}': { parameters: [param('memberId')], get: { operationId: 'getMember', ...ok(Member) } },
        '/members/{memberId}/loans': { parameters: [param('memberId')], get: { operationId: 'listLoans', ...ok({ type: 'array', items: Loan }) }, post: { operationId: 'lend', ...ok(Loan, '200') } },
        '/notes': { post: { operationId: 'note', ...ok(Note, '201') } },
        '/members/{memberId}/history/daily': { parameters: [param('memberId')], get: { operationId: 'daily', ...ok({ type: 'object', properties: { days: { type: 'array', items: Day }, next_page_uri: { type: 'string' } } }) } },
        '/login': { post: { operationId: 'login', ...ok(Note) } },
        '/me': { get: { operationId: 'me', ...ok({ type: 'object', properties: { name: { type: 'string' }, roles: { type: 'array', items: Note } } }) } },
      },
    };
    const { collections, bindings } = inferCollections(buildOperations(api));
    const shapes = collections.filter((c) => c.itemPath === '').map((c) => [c.name, c.keyProperty, c.keyless ?? false, c.listed, c.creatable, c.parent ?? null]);
    expect(shapes).toEqual([
      ['loans', 'id', false, true, true, 'members'],
      ['notes', '', true, false, true, null],
      ['daily', '', true, true, false, 'members'],
    ]);
    expect(['listLoans', 'lend', 'note', 'daily'].map((id) => bindings.get(id)?.action)).toEqual(['list', 'create', 'create', 'list']);
    const operations = buildOperations(api);
    const reason = (id: string) => unmappedReason(operations.find((op) => op.id === id)!, collections, { operations, bindings });
    expect(reason('login')).toBe('a POST that answers no `201 Created`, with no list of its records beside it: an action, not a create');
    expect(reason('me')).toBe('its answer wraps one array among fields that are no page (a total, a cursor, page links): taken for one record, not a list');
  });

  it('counts a nested integer key in its parent unless it is named like an id, or its description says otherwise', () => {
    const build = (key: string, description?: string) => {
      const Child = { type: 'object', properties: { [key]: { type: 'integer', description } } };
      const ok = (schema: SchemaObject) => ({ responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } });
      const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
      const api = {
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/projects/{projectId}': { parameters: [param('projectId')], get: { operationId: 'getProject', ...ok({ type: 'object', properties: { id: { type: 'integer' } } }) } },
          [`/projects/{projectId}/issues/{${key}}`]: { parameters: [param('projectId'), param(key)], get: { operationId: 'getIssue', ...ok(Child) } },
        },
      };
      return inferCollections(buildOperations(api)).collections.find((c) => c.name === 'issues')!.keyPerParent ?? false;
    };
    expect([build('number'), build('id'), build('issueId'), build('iid', 'The number of the issue within the project.'), build('number', 'Unique across all projects.')]).toEqual([true, false, false, true, false]);
  });
});

