/**
 * Issue 40, point 3: the problems of a discriminated `oneOf`/`anyOf` come from the branch its
 * discriminator chose (src/openapi/validation/to-json-schema.ts, ajv-problems.ts), in the mock's 400s and
 * in the validators the suite and the proxy share with it; a missing or unknown value is one
 * problem naming the property and its values.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../../mock/app.js';
import { loadDocument } from '../document/load-document.js';
import type { SchemaObject } from '../document/schema.js';
import { CORPUS, ROOT } from '../../test-support/petstore.js';
import { createAjv } from './ajv-instance.js';
import { toProblems } from './ajv-problems.js';
import { schemaCompiler } from './compile-schema.js';
import { SchemaConverter } from './to-json-schema.js';

const tracker = buildMock(await loadDocument(`${ROOT}test/documents/tracker-api.yaml`));
const send = async (method: string, path: string, body: unknown) => {
  const response = await tracker.app.request(path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { message: string; details?: Array<{ path: string; rule: string; message: string }> } };
};
const key = ((await (await tracker.app.request('/projects')).json()) as Array<{ key: string }>)[0].key;
const issues = `/projects/${key}/issues`;

/** The problems `value` has against a schema of a loaded document, as the mock words them. */
async function problemsIn(file: string, pick: (api: any) => SchemaObject, direction: 'request' | 'response' = 'request') {
  const document = await loadDocument(file);
  const ajv = createAjv(document.dialect);
  const validate = schemaCompiler(ajv, new SchemaConverter(document.api, ajv, document.dialect), direction)(pick(document.api))!;
  return (value: unknown) => (validate(value) ? [] : toProblems(validate.errors, 'body').map((p) => `${p.path}: ${p.message}`));
}

describe('a discriminated oneOf in a request body', () => {
  it('reports the chosen branch\'s problems only', async () => {
    const bug = await send('POST', issues, { issueType: 'bug', title: 'x' });
    expect(bug.status).toBe(400);
    expect(bug.body.message).toBe('body.severity: is required');
    expect(bug.body.details).toEqual([{ path: 'body.severity', rule: 'required', message: 'is required' }]);
    const feature = await send('POST', issues, { issueType: 'feature', title: '', votes: -1 });
    expect(feature.body.details?.map((p) => `${p.path}: ${p.message}`)).toEqual(['body.title: must NOT have fewer than 1 characters', 'body.votes: must be >= 0']);
  });

  it('says once, naming the property and its values, when the value is missing or unknown', async () => {
    const missing = await send('POST', issues, { title: 'x', severity: 'low' });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'body.issueType', rule: 'required', message: 'is required: one of bug, feature' }]);
    const unknown = await send('POST', issues, { issueType: 'story', title: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'body.issueType', rule: 'enum', message: 'must be one of bug, feature' }]);
    const number = await send('POST', issues, { issueType: 1, title: 'x' });
    expect(number.body.details).toEqual([{ path: 'body.issueType', rule: 'enum', message: 'must be one of bug, feature' }]);
  });

  it('accepts a body valid for the branch its value names, and refuses what is no object once', async () => {
    expect((await send('POST', issues, { issueType: 'bug', title: 'x', severity: 'low' })).status).toBe(201);
    expect((await send('POST', issues, { issueType: 'feature', title: 'y' })).status).toBe(201);
    for (const body of ['bug', [{ issueType: 'bug' }], null]) {
      const refused = await send('POST', issues, body);
      expect(refused.body.details).toEqual([{ path: 'body', rule: 'type', message: 'must be object' }]);
    }
    // A PUT with the same schema: the same account.
    const put = await send('PUT', `${issues}/1`, { issueType: 'bug', title: 'x' });
    expect(put.body.details).toEqual([{ path: 'body.severity', rule: 'required', message: 'is required' }]);
  });

  it('chooses by the schemas\' names without a mapping, through branches that are an allOf of a base and their own part', async () => {
    const attachments = `/projects/${key}/attachments`;
    const link = await send('POST', attachments, { kind: 'LinkAttachment', name: 'spec' });
    expect(link.body.details).toEqual([{ path: 'body.url', rule: 'required', message: 'is required' }]);
    const unknown = await send('POST', attachments, { kind: 'link', name: 'spec', url: 'https://example.com/' });
    expect(unknown.body.details).toEqual([{ path: 'body.kind', rule: 'enum', message: 'must be one of LinkAttachment, FileAttachment' }]);
    expect((await send('POST', attachments, { kind: 'LinkAttachment', name: 'spec', url: 'https://example.com/' })).status).toBe(201);
  });

  it('seeds records of every branch, each with its own value (the generator reads the choice the validator does)', async () => {
    const listed = (await (await tracker.app.request(issues)).json()) as Array<{ issueType: string }>;
    const all = [];
    for (const { key: project } of (await (await tracker.app.request('/projects')).json()) as Array<{ key: string }>) all.push(...((await (await tracker.app.request(`/projects/${project}/issues`)).json()) as Array<{ issueType: string }>));
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(all.map((issue) => issue.issueType))).toEqual(new Set(['bug', 'feature']));
    expect(tracker.warnings).toEqual([]);
  });

  it('leaves a oneOf without a discriminator as it was: one problem where no branch fits', async () => {
    const watcher = await send('POST', `/projects/${key}/watchers`, { userId: 0 });
    expect(watcher.status).toBe(400);
    expect(watcher.body.details?.map((p) => p.path)).toEqual(['body.userId', 'body.email', 'body.userId']);
  });
});

describe('the shared validators (the suite\'s and the proxy\'s)', () => {
  it('choose the branch the same way in responses, and in the corpus\'s documents (mapping by name, implicit names, allOf branches)', async () => {
    const response = await problemsIn(`${ROOT}test/documents/tracker-api.yaml`, (api) => api.components.schemas.Issue, 'response');
    expect(response({ issueType: 'bug', title: 'x', number: 1 })).toEqual(['body.severity: is required']);
    expect(response({ issueType: 'feature', title: 'x', number: 1 })).toEqual([]);
    const readme = `${CORPUS}/readme-discriminators.yaml`;
    const mapped = await problemsIn(readme, (api) => api.paths['/discriminator-with-mapping'].patch.requestBody.content['application/json'].schema);
    expect(mapped({ discrim: 'Option Three' })).toEqual(['body.discrim: must be one of Option One, Option Two']);
    const implicit = await problemsIn(readme, (api) => api.paths['/oneof-allof-top-level-disc'].patch.requestBody.content['application/json'].schema);
    expect(implicit({ pet_type: 'DogNoDisc', breed: 'Poodle' })).toEqual(['body.breed: must be one of Dingo, Husky, Retriever, Shepherd']);
    expect(implicit({ pet_type: 'CatNoDisc', hunts: true })).toEqual([]);
    expect(implicit({ hunts: true })).toEqual(['body.pet_type: is required: one of CatNoDisc, DogNoDisc']);
  });

  it('choose by a nullable anyOf\'s discriminator (3.0), letting null through', async () => {
    const file = `${ROOT}test/documents/tracker-api.yaml`;
    const document = await loadDocument(file);
    const ajv = createAjv(document.dialect);
    const schemas = document.api.components!.schemas!;
    const schema = { nullable: true, anyOf: [schemas.Bug, schemas.Feature], discriminator: { propertyName: 'issueType', mapping: { bug: '#/components/schemas/Bug', feature: '#/components/schemas/Feature' } } } as SchemaObject;
    const validate = schemaCompiler(ajv, new SchemaConverter(document.api, ajv, document.dialect), 'request')(schema)!;
    expect(validate(null)).toBe(true);
    expect(validate({ issueType: 'bug', title: 'x' })).toBe(false);
    expect(toProblems(validate.errors, 'body').map((p) => `${p.path}: ${p.message}`)).toEqual(['body.severity: is required']);
  });
});
