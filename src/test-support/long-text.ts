/**
 * Long text for tests of keys and scopes: a given number of bytes of UTF-8, the same on every run,
 * that does not compress (storage may fit compressible text where it cannot fit this one: a
 * PostgreSQL index compresses what it holds).
 */

/** The printable ASCII characters, space to `~`. */
export const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
/** Two, three and four bytes each in UTF-8, and a combining mark. */
export const MULTI_BYTE = ['é', 'ß', 'ж', '東', '京', '\u0301', '🐕', '𝄞'];

const encoder = new TextEncoder();

/**
 * `bytes` bytes of UTF-8 drawn from `alphabet` by a generator seeded with `seed` (a non-zero
 * integer): the same text for the same arguments. `z`s fill what the alphabet's next character
 * would overrun.
 * @example longText(3_000, ASCII, 1) // 3,000 bytes of printable ASCII
 */
export function longText(bytes: number, alphabet: readonly string[], seed: number): string {
  let state = seed | 0 || 1;
  const parts: string[] = [];
  let size = 0;
  for (;;) {
    // xorshift32: not random, but enough that the text does not compress.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const character = alphabet[(state >>> 0) % alphabet.length];
    const length = encoder.encode(character).length;
    if (size + length > bytes) break;
    parts.push(character);
    size += length;
  }
  return parts.join('') + 'z'.repeat(bytes - size);
}

/** The length of a text in bytes of UTF-8. */
export const utf8Length = (text: string): number => encoder.encode(text).length;
