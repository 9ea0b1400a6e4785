/**
 * The banner's `document` line names the file the way that reads shortest from where the command
 * runs: never as a climb of `../` longer than the absolute path.
 */
import { describe, expect, it } from 'vitest';
import { shownSpec } from './banner-spec-path.js';

describe('shownSpec', () => {
  it('shows a document under the working directory relative to it, whether given absolute or relative', () => {
    expect(shownSpec('/home/me/app/spec/openapi.yaml', '/home/me/app')).toBe('spec/openapi.yaml');
    expect(shownSpec('spec/openapi.yaml', '/home/me/app')).toBe('spec/openapi.yaml');
    expect(shownSpec('./spec/../spec/openapi.yaml', '/home/me/app')).toBe('spec/openapi.yaml');
  });

  it('shows an absolute --spec far from the working directory as given, not as a climb of ../../../', () => {
    expect(shownSpec('/srv/api/openapi.yaml', '/home/me/work/app')).toBe('/srv/api/openapi.yaml');
    expect(shownSpec('/work/wt/spec/openapi.yaml', '/tmp/a/b/c')).toBe('/work/wt/spec/openapi.yaml');
  });

  it('keeps a short climb when it is shorter than the absolute path', () => {
    expect(shownSpec('/home/me/work/api.yaml', '/home/me/work/app')).toBe('../api.yaml');
    expect(shownSpec('../api.yaml', '/home/me/work/app')).toBe('../api.yaml');
  });

  it('shows a URL as given, and the working directory itself by its absolute path', () => {
    expect(shownSpec('https://example.com/openapi.yaml', '/home/me')).toBe('https://example.com/openapi.yaml');
    expect(shownSpec('HTTP://example.com/a.json', '/home/me')).toBe('HTTP://example.com/a.json');
    expect(shownSpec('/home/me', '/home/me')).toBe('/home/me');
  });
});
