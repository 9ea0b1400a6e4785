import { describe, expect, it } from 'vitest';
import { fnv1a, seeded } from './fnv.js';

describe('fnv1a', () => {
  it('gives the published FNV-1a 32-bit values, for a text and for its bytes', () => {
    // From the FNV test vectors (Fowler, Noll, Vo).
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1a(new TextEncoder().encode('foobar'))).toBe(0xbf9cf968);
  });

  it('mixes a seed into the basis: another seed, another value; the same, the same', () => {
    expect(fnv1a('pets', seeded(1))).toBe(fnv1a('pets', seeded(1)));
    expect(fnv1a('pets', seeded(1))).not.toBe(fnv1a('pets', seeded(2)));
    expect(fnv1a('pets', seeded(0))).toBe(fnv1a('pets'));
  });
});
