/**
 * FNV-1a, 32 bits: a fast, stable hash of a text (its UTF-16 code units) or of bytes, for seeds
 * drawn from names and for entity tags. Not for secrets.
 */
const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

/** @example fnv1a('pets') // the same number on every run; fnv1a('pets', OFFSET ^ seed) mixes a seed in */
export function fnv1a(input: string | Uint8Array, basis: number = OFFSET_BASIS): number {
  let hash = basis;
  if (typeof input === 'string') for (let i = 0; i < input.length; i++) hash = Math.imul(hash ^ input.charCodeAt(i), PRIME);
  else for (let i = 0; i < input.length; i++) hash = Math.imul(hash ^ input[i], PRIME);
  return hash >>> 0;
}

/** The offset basis with a seed mixed in: `fnv1a(name, seeded(seed))`. */
export const seeded = (seed: number): number => OFFSET_BASIS ^ seed;
