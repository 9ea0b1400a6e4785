/**
 * Lone surrogates: half of a UTF-16 surrogate pair, which a JavaScript string (and JSON text, as an
 * escape) may hold but which is not Unicode text: no UTF-8, no URL and no database text can carry
 * one. In Unicode mode a whole pair is one code point, so these match only a half left alone.
 */
export const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Every lone surrogate of a text, for replacing or listing them. */
export const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/** @example holdsLoneSurrogate('\ud800') // true; holdsLoneSurrogate('🐶') // false */
export function holdsLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
