import { describe, expect, it } from 'vitest';
import { petstore, petstoreDocument } from '../../test-support/petstore.js';
import { responseCheckerFor } from '../../test-support/response-checker.js';

const check = responseCheckerFor(await petstoreDocument());
const { operations } = await petstore();
const op = (id: string) => operations.find((o) => o.id === id)!;
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'Content-Type': 'application/json', ...headers }),
  text: JSON.stringify(body),
});
const pet = { id: 1, name: 'Rex', categoryId: 1 };
const deprecation = { Deprecation: '@1788220800', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT', Link: '<https://x>; rel="sunset"' };

describe('the response checker', () => {
  it('accepts a conforming response', () => {
    expect(check(op('getPet'), json(200, pet, deprecation))).toEqual([]);
  });

  it('reports an undeclared status, with the declared ones as a list of their own', () => {
    expect(check(op('createPet'), json(200, pet))).toEqual([{ path: 'status', rule: 'declared', message: '200 is not declared (declared: 201, 400, 401, 413, 422)', declared: ['201', '400', '401', '413', '422'] }]);
  });

  it('reports a missing required field, a wrong type and an enum violation in the body', () => {
    expect(check(op('getPet'), json(200, { name: 'Rex', status: 'lost', categoryId: '1' }, deprecation)).map((p) => `${p.path}: ${p.message}`)).toEqual([
      'body.categoryId: must be integer',
      'body.status: must be one of available, pending, sold',
      'body.id: is required',
    ]);
  });

  it('reports missing and malformed declared headers', () => {
    expect(check(op('getPet'), json(200, pet, { Deprecation: 'true', Sunset: '2027-06-30' })).map((p) => p.path)).toEqual([
      'header.Deprecation',
      'header.Sunset',
      'header.Link',
    ]);
    expect(check(op('createPet'), json(201, pet)).map((p) => `${p.path}: ${p.message}`)).toEqual(['header.Location: is required']);
  });

  it('reports an undeclared media type, a body that is not JSON, and a body where none is declared', () => {
    expect(check(op('listPets'), { ...json(200, []), headers: new Headers({ 'Content-Type': 'text/html', 'X-Total-Count': '0' }) })[0].message).toBe(
      'text/html is not declared (declared: application/json)',
    );
    expect(check(op('listPets'), { ...json(200, []), text: '[', headers: new Headers({ 'Content-Type': 'application/json', 'X-Total-Count': '0' }) })).toEqual([
      { path: 'body', rule: 'json', message: 'is not valid JSON' },
    ]);
    expect(check(op('deletePet'), { status: 204, headers: new Headers(), text: '{}' })[0].rule).toBe('empty');
  });

  it('reads a response declared without content as no promise about its body, but for 204 and 304 (bodiless by HTTP)', () => {
    const deleted = op('deletePet');
    const bare = deleted.responses.find((r) => r.status === '204')!;
    const answered = { ...deleted, responses: [{ ...bare, status: '200' }, { ...bare, status: '304' }] };
    expect(check(answered, json(200, { deleted: true }))).toEqual([]);
    expect(check(answered, { status: 200, headers: new Headers(), text: 'gone' })).toEqual([]);
    expect(check(answered, { status: 304, headers: new Headers(), text: '{}' })).toEqual([{ path: 'body', rule: 'empty', message: 'must be empty (a 304 has no body)' }]);
  });

  it('checks error bodies against the Error schema, naming the failed keyword\'s place in it', () => {
    expect(check(op('getPet'), json(404, { code: 'NOT_FOUND', message: 'gone' }, deprecation))).toEqual([{ path: 'body.status', rule: 'required', message: 'is required', schemaPath: '#/required' }]);
  });
});
