/**
 * Request body decoders by media type: bytes in, the value the body schema is checked against out
 * (or a 400). JSON (any `+json` type too) is parsed, a form is decoded to text for the operation's
 * form parser to type, and anything else is kept as bytes. An extension may register a decoder
 * for another media type (`application/xml`, `application/yaml`) or replace one.
 */
import { ApiError, errors } from '../../core/api-error.js';
import { Registry } from '../../core/registry.js';
import { isJsonMediaType, type ParsedMediaType } from '../../core/media-type.js';

/** Decodes a body; an ApiError refuses it. */
export type BodyDecoder = (bytes: Uint8Array, media: ParsedMediaType) => unknown;

/** Deeper bodies are refused before parsing: no schema of a real API nests this far. */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as UTF-8 text, or a 400 for another charset or bytes that are not UTF-8. */
export function utf8Text(bytes: Uint8Array, media: ParsedMediaType): string | ApiError {
  const { charset } = media;
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    return new ApiError(400, 'INVALID_CONTENT_TYPE', `Bodies must be UTF-8 (RFC 8259); charset ${charset} is not accepted.`);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return errors.invalidJson('it is not valid UTF-8');
  }
}

/** The nesting depth of a JSON text, counted in one pass without parsing (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

const decodeJson: BodyDecoder = (bytes, media) => {
  const text = utf8Text(bytes, media);
  if (text instanceof ApiError) return text;
  if (jsonDepth(text) > MAX_JSON_DEPTH) return errors.invalidJson(`it is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (error) {
    return errors.invalidJson(error instanceof RangeError ? 'it is nested too deeply' : String((error as Error).message).replace(/\.$/, ''));
  }
};

/** The built-in decoders; `*\/*` is the fallback for media types nothing else decodes. */
export function bodyDecoders(): Registry<BodyDecoder> {
  return new Registry<BodyDecoder>('body decoder')
    .register('application/json', decodeJson)
    .register('application/x-www-form-urlencoded', utf8Text)
    .register('*/*', copyBytes);
}

/** The decoder for a media type: its own, JSON's for any `+json` type, else the fallback. */
export function decoderFor(decoders: Registry<BodyDecoder>, essence: string): BodyDecoder {
  return decoders.get(essence) ?? (isJsonMediaType(essence) ? decoders.get('application/json') : undefined) ?? decoders.get('*/*') ?? copyBytes;
}

/** The body as bytes of its own (what was read may be a view of a larger buffer). */
function copyBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}
