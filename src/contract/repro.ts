/**
 * A curl command that sends the same request again, so a finding can be reproduced by hand. The
 * token is written as `$TOKEN`, never in clear (in a header, or in the query for an API key sent there).
 */
import type { Case } from './case.js';

/** Bodies longer than this are described, not spelled out. */
const MAX_BODY = 2_000;

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** In double quotes, with the token as `$TOKEN` (the only part the shell expands). */
const withToken = (text: string, token: string) => `"${text.split(token).map((part) => part.replace(/[$`"\\]/g, '\\$&')).join('$TOKEN')}"`;

export function reproOf(c: Case, baseUrl: string, token: string | undefined): string {
  const url = `${baseUrl}${c.path}`;
  const encoded = token && url.includes(encodeURIComponent(token)) ? url.split(encodeURIComponent(token)).join(token) : url;
  const parts = ['curl', '-sS', '-i', '-X', c.method, token && encoded.includes(token) ? withToken(encoded, token) : quote(url)];
  for (const [name, value] of Object.entries(c.headers)) {
    const header = `${name}: ${value}`;
    parts.push('-H', token && header.includes(token) ? withToken(header, token) : quote(header));
  }
  if (c.body !== undefined) {
    const text = typeof c.body === 'string' ? c.body : Buffer.from(c.body).toString('utf8');
    if (text.length <= MAX_BODY) parts.push('--data-raw', quote(text));
    else parts.push(`--data-binary @body  # a body of ${Buffer.byteLength(text)} bytes, starting ${JSON.stringify(text.slice(0, 40))}`);
  }
  return parts.join(' ');
}
