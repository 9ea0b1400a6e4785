/**
 * What the docs page reads from a document, and the copy it shows: servers and code samples
 * pointed at the mock, the rest as written; which operations hide try-it; the scenarios offered.
 */
import { describe, expect, it } from 'vitest';
import { codeSamplesOf, documentForDocs, hidesTryIt, scenariosOf } from './docs-document.js';

const MOCK = 'http://127.0.0.1:4010/v1';

describe('documentForDocs', () => {
  const api = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    servers: [{ url: 'https://api.example.com/v1' }, { url: 'https://{region}.example.com', variables: { region: { default: 'eu' } } }],
    paths: {
      '/pets': {
        servers: [{ url: 'https://pets.example.com/' }],
        get: {
          servers: [{ url: 'https://op.example.com' }],
          'x-codeSamples': [
            { lang: 'cURL', source: "curl https://api.example.com/v1/pets && curl https://api.example.com/v10/x && curl https://eu.example.com/pets" },
            { lang: 'JavaScript', source: "fetch('https://pets.example.com/pets'); fetch('https://op.example.com.evil/pets'); fetch('https://op.example.com/pets')" },
            { lang: 'broken' },
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
    },
  };

  it('sends every request to the mock: root, path and operation servers replaced, the input left alone', () => {
    const copy = documentForDocs(api, MOCK);
    expect(copy.servers).toEqual([{ url: MOCK, description: 'This mock' }]);
    expect(copy.paths!['/pets'].servers).toBeUndefined();
    expect(copy.paths!['/pets'].get!.servers).toBeUndefined();
    expect(api.servers).toHaveLength(2);
    expect(api.paths['/pets'].get.servers).toEqual([{ url: 'https://op.example.com' }]);
  });

  it('points the code samples at the mock: each declared server URL (variables at their defaults), at a boundary only', () => {
    const [curl, js, broken] = documentForDocs(api, MOCK).paths!['/pets'].get!['x-codeSamples'] as Array<{ lang: string; source?: string }>;
    expect(curl.source).toBe(`curl ${MOCK}/pets && curl https://api.example.com/v10/x && curl ${MOCK}/pets`);
    expect(js.source).toBe(`fetch('${MOCK}/pets'); fetch('https://op.example.com.evil/pets'); fetch('${MOCK}/pets')`);
    expect(broken).toEqual({ lang: 'broken' });
  });
});

describe('documentForDocs with the mock\'s authorization server', () => {
  const api = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {},
    components: {
      securitySchemes: {
        boards: {
          type: 'oauth2',
          flows: {
            authorizationCode: { authorizationUrl: 'https://idp.example.com/authorize', tokenUrl: 'https://idp.example.com/token', refreshUrl: 'https://idp.example.com/refresh', scopes: { read: 'r' } },
            clientCredentials: { tokenUrl: 'https://idp.example.com/token', scopes: {} },
            implicit: { authorizationUrl: 'https://idp.example.com/authorize', scopes: {} },
          },
        },
        oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://idp.example.com/.well-known/openid-configuration' },
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      },
    },
  } as const;

  it('points every flow and the discovery URL at the mock, and leaves the scopes and other schemes as written', () => {
    const { securitySchemes } = documentForDocs(api, MOCK, undefined, 'http://127.0.0.1:4010').components!;
    expect(securitySchemes!.boards).toEqual({
      type: 'oauth2',
      flows: {
        authorizationCode: { authorizationUrl: 'http://127.0.0.1:4010/__oauth/authorize', tokenUrl: 'http://127.0.0.1:4010/__oauth/token', refreshUrl: 'http://127.0.0.1:4010/__oauth/token', scopes: { read: 'r' } },
        clientCredentials: { tokenUrl: 'http://127.0.0.1:4010/__oauth/token', scopes: {} },
        implicit: { authorizationUrl: 'http://127.0.0.1:4010/__oauth/authorize', scopes: {} },
      },
    });
    expect(securitySchemes!.oidc).toEqual({ type: 'openIdConnect', openIdConnectUrl: 'http://127.0.0.1:4010/__oauth/.well-known/openid-configuration' });
    expect(securitySchemes!.key).toEqual(api.components.securitySchemes.key);
    expect(api.components.securitySchemes.oidc.openIdConnectUrl).toBe('https://idp.example.com/.well-known/openid-configuration'); // the input left alone
  });

  it('leaves the flows at the identity provider when the mock serves no authorization server', () => {
    expect(documentForDocs(api, MOCK).components!.securitySchemes).toEqual(api.components.securitySchemes);
  });
});

describe('codeSamplesOf', () => {
  it('reads x-codeSamples, else x-code-samples, and leaves out entries without a source', () => {
    expect(codeSamplesOf({ 'x-codeSamples': [{ lang: 'cURL', source: 'curl x' }, { lang: 'Go' }, 'text'] })).toEqual([{ lang: 'cURL', source: 'curl x' }]);
    expect(codeSamplesOf({ 'x-code-samples': [{ lang: 'Python', label: 'py', source: 'print(1)' }] })).toEqual([{ lang: 'Python', label: 'py', source: 'print(1)' }]);
    expect(codeSamplesOf({ 'x-codeSamples': { lang: 'cURL' } })).toEqual([]);
  });
});

describe('hidesTryIt', () => {
  it('is true where the operation says so, or the root does and the operation does not say otherwise', () => {
    expect(hidesTryIt({}, { 'x-hideTryItPanel': true })).toBe(true);
    expect(hidesTryIt({}, {})).toBe(false);
    expect(hidesTryIt({ 'x-hideTryItPanel': true }, {})).toBe(true);
    expect(hidesTryIt({ 'x-hideTryItPanel': true }, { 'x-hideTryItPanel': false })).toBe(false);
    expect(hidesTryIt({}, { 'x-hideTryItPanel': 'yes' })).toBe(false);
  });
});

describe('scenariosOf', () => {
  it('offers each status written as a number, labelled by its description, then the named examples of the first success', () => {
    const doc = { components: { responses: { NotFound: { description: 'No such pet.\nMore text.' } } } };
    const resolve = (value: Record<string, any>) => (value.$ref ? doc.components.responses.NotFound : value);
    const operation = {
      responses: {
        200: { description: 'A pet.', content: { 'application/json': { examples: { rex: {}, empty: {} } } } },
        '404': { $ref: '#/components/responses/NotFound' },
        '5XX': { description: 'Any failure.' },
        default: { description: 'Other.' },
      },
    };
    expect(scenariosOf(operation, resolve)).toEqual([
      { prefer: 'code=200', label: '200 A pet.' },
      { prefer: 'code=404', label: '404 No such pet.' },
      { prefer: 'example=rex', label: '200 example "rex"' },
      { prefer: 'example=empty', label: '200 example "empty"' },
    ]);
    expect(scenariosOf({})).toEqual([]);
  });
});
