import { describe, expect, it } from 'vitest';
import { walkObjects } from './walk-objects.js';

describe('walkObjects', () => {
  it('visits each object once (a shared one too), walks arrays without visiting them, and skips inside what visit refuses', () => {
    const shared = { $ref: '#/shared' };
    const skipped = { skip: true, inner: { $ref: '#/never' } };
    const seen: unknown[] = [];
    walkObjects({ a: shared, b: [shared, { c: shared }], skipped }, (node) => {
      seen.push(node.$ref ?? Object.keys(node).join(','));
      return node.skip !== true;
    });
    expect(seen.filter((s) => s === '#/shared')).toHaveLength(1);
    expect(seen).not.toContain('#/never');
    expect(seen).toContain('skip,inner');
  });

  it('walks a value nested far deeper than a recursive walk could', () => {
    let deep: Record<string, unknown> = { $ref: '#/bottom' };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    let bottom: unknown;
    walkObjects(deep, (node) => {
      if (node.$ref) bottom = node.$ref;
      return true;
    });
    expect(bottom).toBe('#/bottom');
  });
});
