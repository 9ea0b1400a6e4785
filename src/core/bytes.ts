/**
 * Bytes and base64 with what every runtime has (TextEncoder, TextDecoder, btoa, atob), not Node's
 * Buffer: the pipeline also runs in a browser.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** @example utf8('é').length // 2 */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** Text from UTF-8 bytes (invalid sequences become U+FFFD). */
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);

export const isBytes = (value: unknown): value is Uint8Array => value instanceof Uint8Array;

/** One array holding the chunks in order (the chunk itself when there is one). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const whole = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

/**
 * A stream read whole, unless it passes `maxBytes`: then it is cancelled at once (a huge or
 * endless body is never held) and the answer is undefined.
 */
export async function readCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/** @example toBase64('user:') // 'dXNlcjo=' (UTF-8 first for text) */
export function toBase64(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of base64 or base64url text, or undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** @example toBase64Url('o20') // 'bzIw' (no padding) */
export const toBase64Url = (text: string): string => toBase64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
