/**
 * Header values built from what others wrote (a property name in a violation's path, say): a
 * header carries visible ASCII only, so anything else (CR, LF, control characters, text beyond
 * Latin-1, which `Headers` refuses or a peer may misread) is percent-encoded as UTF-8, and `%`
 * with it so that the encoding reads back one way.
 *
 * @example sendableHeaderValue('body.a\r\nb') // 'body.a%0D%0Ab'
 */
const encoder = new TextEncoder();

export function sendableHeaderValue(text: string): string {
  return text.replace(/[^\x20-\x24\x26-\x7e]+/g, (run) => Array.from(encoder.encode(run), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}
