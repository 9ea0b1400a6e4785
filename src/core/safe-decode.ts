/** Decodes a query component (`+` is a space); a malformed escape leaves the text as it was. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
