/**
 * The Petstore document passes Spectral's spectral:oas ruleset (Spectral's CLI, a child process).
 * The rest of what the document must hold: petstore-spec.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, SPEC } from '../../test-support/petstore.js';

describe('spec/openapi.yaml', () => {
  it("passes Spectral's spectral:oas ruleset without errors or warnings", () => {
    const output = execFileSync(`${ROOT}node_modules/.bin/spectral`, ['lint', '--fail-severity=warn', '-f', 'json', SPEC], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1))).toEqual([]);
  });
});
