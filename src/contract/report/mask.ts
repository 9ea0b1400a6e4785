/**
 * Secrets are never printed: the token and every `-H` value, in each form the suite sends them
 * (as given, URL-encoded in a query, inside a Basic credential, the part after a scheme such as
 * `Bearer `, escaped in a JSON string), become `***` wherever they appear, whatever the server
 * sends back (an echo in a body, a header, an error message, a Location). One mask per run:
 * runContract applies it to the report it returns, to each exchange it hands to `onExchange` and
 * to the errors it throws, and every output (console, JUnit, coverage, dry run, progress line) is
 * made from those.
 *
 * @example
 * const mask = secretMask({ token: 's3cret' });
 * mask.text('{"echo":"Bearer s3cret"}') // '{"echo":"Bearer ***"}'
 */
import { fromBase64, fromUtf8, toBase64, utf8 } from '../../core/bytes.js';
import type { Exchange } from '../case.js';

export const MASK = '***';

/** Values shorter than this are not secrets the suite can mask: masking `1` would garble every status. */
const MIN_LENGTH = 4;

export interface Mask {
  text: (text: string) => string;
  /** A copy of plain data (objects, arrays, strings) with every string masked. */
  value: <T>(value: T) => T;
  /** The exchange as others may see it: request, response and the case's purpose (the data of its check) masked. */
  exchange: (exchange: Exchange) => Exchange;
  /** The error, its message and its cause's masked where they can be set (in place). */
  error: (error: unknown) => unknown;
}

export function secretMask({ token, headers = {} }: { token?: string; headers?: Record<string, string> }): Mask {
  const forms = new Set<string>();
  for (const secret of [token, ...Object.values(headers)]) for (const part of partsOf(secret)) for (const form of formsOf(part)) forms.add(form);
  // Longest first, so that a form containing another is masked whole.
  const ordered = [...forms].filter((form) => form.length >= MIN_LENGTH).sort((a, b) => b.length - a.length);
  const text = (input: string) => ordered.reduce((masked, form) => (masked.includes(form.slice(0, MIN_LENGTH)) ? withoutForm(masked, form) : masked), input);
  const value = <T>(input: T): T => {
    if (typeof input === 'string') return text(input) as T;
    if (Array.isArray(input)) return input.map(value) as T;
    if (input && typeof input === 'object' && Object.getPrototypeOf(input) === Object.prototype) {
      return Object.fromEntries(Object.entries(input).map(([key, item]) => [key, value(item)])) as T;
    }
    return input;
  };
  const headersOf = (source: Headers) => {
    const masked = new Headers();
    source.forEach((item, name) => masked.append(name, text(item)));
    return masked;
  };
  return {
    text,
    value,
    exchange: (ex) => ({
      ...ex,
      text: text(ex.text),
      json: value(ex.json),
      headers: headersOf(ex.headers),
      error: ex.error === undefined ? undefined : text(ex.error),
      case: { ...ex.case, path: text(ex.case.path), label: text(ex.case.label), headers: value(ex.case.headers), body: typeof ex.case.body === 'string' ? text(ex.case.body) : ex.case.body && utf8(text(fromUtf8(ex.case.body))), purpose: value(ex.case.purpose) },
    }),
    error: (error) => {
      for (const holder of [error, (error as { cause?: unknown } | undefined)?.cause]) {
        const message = (holder as { message?: unknown } | undefined)?.message;
        try {
          if (typeof message === 'string') (holder as { message: string }).message = text(message);
        } catch {
          // A message with only a getter (a DOMException's) cannot be set; it names no request.
        }
      }
      return error;
    },
  };
}

/** The text with a form masked, whole or cut short where a finding shortens what it quotes (`"Bearer s3cr...`, see excerpt in checks/check.ts). */
function withoutForm(text: string, form: string): string {
  let masked = text.split(form).join(MASK);
  // Only a text cut short holds a form cut short (the proxy masks every violation: most are whole).
  if (!masked.includes('...')) return masked;
  for (let length = form.length - 1; length >= MIN_LENGTH; length--) masked = masked.split(`${form.slice(0, length)}...`).join(`${MASK}...`);
  return masked;
}

/** A secret, and what a server may echo of it: the credentials after a scheme (`Bearer x`), and those a Basic credential encodes (`user:pass`, `pass`). */
function partsOf(secret: string | undefined): string[] {
  if (!secret) return [];
  const credentials = /^[\w!#$%&'*+.^`|~-]+ +(\S+)$/.exec(secret)?.[1];
  const decoded = credentials && /^[A-Za-z0-9+/]+=*$/.test(credentials) ? fromBase64(credentials) : undefined;
  const text = decoded && fromUtf8(decoded);
  const basic = text && /^[\x20-\x7e]*:[\x20-\x7e]*$/.test(text) ? text : undefined;
  return [secret, credentials, basic, basic?.split(':').slice(1).join(':')].filter((part): part is string => Boolean(part && part.length >= MIN_LENGTH));
}

/** The forms the suite sends a value in, or a server may echo it in. */
function formsOf(value: string): string[] {
  return [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1), toBase64(value), toBase64(`${value}:`)];
}
