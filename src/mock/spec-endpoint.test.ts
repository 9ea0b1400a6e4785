/**
 * The document endpoint's parts, without a mock: content negotiation, entity tags, and the
 * responder serializing each form once, on its first request.
 */
import yaml from 'js-yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { matchesEtag, negotiateSpec, parseAccept, specResponder } from './spec-endpoint.js';

describe('negotiateSpec', () => {
  const cases: Array<[string | undefined, string, string]> = [
    [undefined, 'json', 'application/json'],
    ['', 'json', 'application/json'],
    ['*/*', 'json', 'application/json'],
    ['application/json', 'json', 'application/json'],
    ['application/yaml', 'yaml', 'application/yaml'],
    ['application/x-yaml', 'yaml', 'application/x-yaml'],
    ['text/yaml', 'yaml', 'text/yaml'],
    ['application/vnd.oai.openapi', 'yaml', 'application/vnd.oai.openapi'],
    ['application/vnd.oai.openapi+json', 'json', 'application/vnd.oai.openapi+json'],
    ['APPLICATION/YAML', 'yaml', 'application/yaml'],
    ['application/vnd.oai.openapi;version=3.0', 'yaml', 'application/vnd.oai.openapi'],
    // q-values: the highest wins, whatever the order
    ['application/json;q=0.5, application/yaml', 'yaml', 'application/yaml'],
    ['application/yaml;q=0.4, application/json;q=0.9', 'json', 'application/json'],
    ['application/yaml, application/json', 'json', 'application/json'], // a tie goes to JSON
    ['text/*, application/json;q=0.1', 'yaml', 'text/yaml'],
    ['application/*;q=0.2, text/yaml;q=0.3', 'yaml', 'text/yaml'],
    // the most specific range decides: */* does not lift a type refused by name
    ['application/json;q=0, application/vnd.oai.openapi+json;q=0, */*;q=0.1', 'yaml', 'application/yaml'],
    // a browser's navigation: no preference, JSON
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'json', 'application/json'],
    // nothing acceptable, or garbage: JSON all the same
    ['image/png', 'json', 'application/json'],
    ['not a media type, ;;;', 'json', 'application/json'],
  ];
  for (const [accept, format, type] of cases) {
    it(`answers ${JSON.stringify(accept)} with ${type}`, () => {
      expect(negotiateSpec(accept)).toEqual({ format, type });
    });
  }

  it('reads q-values, clamped to 0..1, and skips malformed ranges', () => {
    expect(parseAccept('text/yaml; q=0.5 , bad, application/json;level=1;q=2, */*;q=x')).toEqual([
      { type: 'text', subtype: 'yaml', q: 0.5 },
      { type: 'application', subtype: 'json', q: 1 },
    ]);
  });
});

describe('matchesEtag', () => {
  it('compares weakly, reads lists and *', () => {
    expect(matchesEtag('"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesEtag('*', '"abc"')).toBe(true);
    expect(matchesEtag('"abd"', '"abc"')).toBe(false);
    expect(matchesEtag(undefined, '"abc"')).toBe(false);
    expect(matchesEtag('', '"abc"')).toBe(false);
  });
});

describe('specResponder', () => {
  afterEach(() => vi.restoreAllMocks());
  const raw = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: { '/a': { $ref: '#/x' } } };

  it('serializes nothing until asked, then each form once', async () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const dump = vi.spyOn(yaml, 'dump');
    const answer = specResponder(raw);
    const ofRaw = () => stringify.mock.calls.filter(([value]) => value === raw).length;
    expect(ofRaw()).toBe(0);
    for (let i = 0; i < 3; i++) expect(JSON.parse(await answer({}).text())).toEqual(raw);
    expect(ofRaw()).toBe(1);
    expect(dump).not.toHaveBeenCalled();
    for (let i = 0; i < 3; i++) expect(yaml.load(await answer({ format: 'yaml' }).text())).toEqual(raw);
    expect(dump).toHaveBeenCalledTimes(1);
  });

  it('sends the type, an ETag per form, Vary: Accept on the negotiated path, and 304 to a client that has it', async () => {
    const answer = specResponder(raw);
    const json = answer({ accept: '*/*' });
    expect(json.headers.get('Content-Type')).toBe('application/json');
    expect(json.headers.get('Vary')).toBe('Accept');
    expect(json.headers.get('Cache-Control')).toBe('no-cache');
    const etag = json.headers.get('ETag')!;
    expect(etag).toMatch(/^"[0-9a-f]{8}-[0-9a-f]+"$/);
    const yamlAnswer = answer({ accept: 'application/yaml' });
    expect(yamlAnswer.headers.get('Content-Type')).toBe('application/yaml; charset=utf-8');
    expect(yamlAnswer.headers.get('ETag')).not.toBe(etag);
    const again = answer({ ifNoneMatch: etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('ETag')).toBe(etag);
    expect(answer({ ifNoneMatch: '"other"' }).status).toBe(200);
    // The fixed paths do not vary with Accept.
    expect(answer({ format: 'json', accept: 'application/yaml' }).headers.get('Vary')).toBeNull();
    expect(answer({ format: 'yaml' }).headers.get('Content-Type')).toBe('application/yaml; charset=utf-8');
  });

  it('adds the CORS headers it is given, Vary merged', () => {
    const answer = specResponder(raw)({ cors: { 'Access-Control-Allow-Origin': '*', Vary: 'Origin' } });
    expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(answer.headers.get('Vary')).toBe('Origin, Accept');
  });

  it('gives the same document the same ETag, and another document another one', () => {
    const etag = (doc: object) => specResponder(doc as never)({}).headers.get('ETag');
    expect(etag(raw)).toBe(etag(structuredClone(raw)));
    expect(etag(raw)).not.toBe(etag({ ...raw, info: { title: 'T', version: '2' } }));
  });
});
