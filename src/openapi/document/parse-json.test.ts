import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeDocument } from '../../../bench/large-document.js';
import { CORPUS } from '../../test-support/petstore.js';
import { DocumentLoadError, loadDocument } from './load-document.js';
import { parseJson, repeatsAKey } from './parse-json.js';
import { parseYaml } from './parse-yaml.js';

describe('parseJson', () => {
  it('reads a JSON document as the YAML parser does', () => {
    for (const text of [readFileSync(`${CORPUS}/oai31-non-oauth-scopes.json`, 'utf8'), JSON.stringify(largeDocument({ operations: 50, chain: 5 }), null, 2)]) {
      expect(parseJson(text)).toEqual((parseYaml(text) as { value: unknown }).value);
    }
    expect(parseJson(' \n[1, "a\\"b", {"x": null}]')).toEqual([1, 'a"b', { x: null }]);
  });

  it('leaves YAML, broken JSON and repeated keys to the YAML parser', () => {
    expect(parseJson('openapi: 3.0.3')).toBeUndefined();
    expect(parseJson('{ openapi: 3.0.3 }')).toBeUndefined(); // a YAML flow mapping
    expect(parseJson('{"a": [1,}')).toBeUndefined();
    expect(parseJson('{"a": {"b": 1, "c": {}, "b": 2}}')).toBeUndefined();
  });

  it('tells a repeated key from the same key in another object, or a value like a key', () => {
    expect(repeatsAKey('{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}], "d": "a", "e": {}, "f": "e"}')).toBe(false);
    expect(repeatsAKey('{"a": {}, "a": 1}')).toBe(true);
    expect(repeatsAKey('[{"k\\"": 1, "k\\"": 2}]')).toBe(true);
  });

  it('still refuses a JSON document that repeats a key, with the YAML parser\'s message and where', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parse-json-')), 'twice.json');
    writeFileSync(file, '{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "paths": {}}');
    const error = await loadDocument(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentLoadError);
    expect((error as Error).message).toMatch(/twice\.json is not valid YAML or JSON: map keys must be unique \(1:75\)\.$/);
  });
});
