/**
 * How the suite writes a request of an operation: the path with its parameters, the credentials
 * of a security alternative made of the token (or none, for an unauthenticated case), the extra
 * headers (`-H`), every required parameter the case does not set itself (generated valid once per
 * operation, written in its style), and the body in the media type the operation takes. What it
 * makes is the case sent and the same request as the document's validator reads it.
 */
import { jsonMediaType } from '../core/media-type.js';
import type { ParameterSpec } from '../openapi/document/schema.js';
import type { Operation } from '../openapi/operations/operation.js';
import { credentialFor } from '../openapi/operations/credential-hint.js';
import type { PlainRequest } from '../openapi/validation/judge-request.js';
import { FITS_OF_INTENT, type Case, type Intent } from './case.js';
import type { Breach } from './confirmation.js';
import type { Purpose } from './purpose.js';
import { writeParameter, type Written } from './write-parameter.js';

/** What a phase asks to send: the parts of a request it decides, and what the case is for. */
export interface RequestSpec {
  label: string;
  params?: Record<string, unknown>;
  query?: string;
  body?: unknown;
  /** Raw body and headers, for cases that break the rules on purpose. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Leave out the credentials the document asks for (or replace them through `headers`). */
  anonymous?: boolean;
  /** What the case is sent to show, for the check that judges it. */
  purpose?: Purpose;
  /** Why it is sent (default: `unauthenticated` when `anonymous`, else `valid`; see Intent). */
  intent?: Intent;
  /** The client errors that fit what the case breaks on purpose (default: those of its intent, FITS_OF_INTENT). */
  fits?: readonly number[];
  /** Which of the operation's security alternatives to send the token as (default: the first). */
  alternative?: number;
  /** The one rule a negative case breaks, and where: it is sent only if the document's validator finds exactly that broken. */
  breaks?: Breach;
  /** Why the document's validator does not judge this case (an edge probe); any other case is confirmed valid before it is sent. */
  unjudged?: string;
  /** Sent once, whatever the answer: a finding on it is not confirmed by sending it again (the preflight, which stops the run on a refusal). */
  once?: boolean;
}

export class RequestComposer {
  constructor(
    private readonly settings: { token?: string; headers?: Record<string, string> },
    /** A valid value of an operation's parameter (see parameter-value.ts, checked by the document's validator). */
    private readonly validValue: (op: Operation, parameter: ParameterSpec) => unknown,
  ) {}

  /** The case a request spec makes, and the same request as the validator reads it. */
  caseOf(op: Operation, spec: RequestSpec): { c: Case; plain: PlainRequest } {
    const pathValues = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(spec.params?.[p.name] ?? '')]));
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? String(spec.params?.[name] ?? '')));
    // Without a token, credentials come only from the extra headers (-H), if any.
    const credentials = spec.anonymous || this.settings.token === undefined ? { headers: {}, query: '' } : this.credentials(op, this.settings.token, spec.alternative);
    const extra = spec.anonymous ? withoutCredentials(this.settings.headers ?? {}, op) : (this.settings.headers ?? {});
    const required = this.requiredParameters(op, spec.query ?? '');
    const headers: Record<string, string> = { ...required.headers, ...extra, ...credentials.headers, ...spec.headers };
    const cookies = [required.cookie, credentials.headers.Cookie, spec.headers?.Cookie].filter(Boolean).join('; ');
    if (cookies) headers.Cookie = cookies;
    const query = [spec.query, required.query, credentials.query].filter(Boolean).join('&');
    let body = spec.rawBody;
    if (body === undefined && spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      // A declared media type: `application/merge-patch+json` where the document takes only that.
      headers['Content-Type'] ??= jsonMediaType(Object.keys(op.requestBody?.content ?? {})) ?? 'application/json';
    }
    const intent = spec.intent ?? (spec.anonymous ? 'unauthenticated' : 'valid');
    const c: Case = { operation: op, method: op.method.toUpperCase(), path: `${path}${query ? `?${query}` : ''}`, headers, body, label: spec.label, intent, fits: spec.fits ?? FITS_OF_INTENT[intent], purpose: spec.purpose };
    return { c, plain: { path: pathValues, query, headers, body } };
  }


  /**
   * Every required parameter a case does not set itself, generated valid (a required header, cookie
   * or query parameter left out would make every case a bad request) and written in its style or
   * media type. The values are generated once per operation, so a run sends the same ones throughout.
   */
  private requiredParameters(op: Operation, query: string): { headers: Record<string, string>; cookie: string; query: string } {
    let generated = this.requiredValues.get(op);
    if (!generated) {
      generated = op.parameters.filter((p) => p.required && p.in !== 'path').map((p) => ({ name: p.name, ...writeParameter(p, this.validValue(op, p)) }));
      this.requiredValues.set(op, generated);
    }
    const given = new Set(new URLSearchParams(query).keys());
    const absent = (q: string, name: string) => !given.has(name) && ![...new URLSearchParams(q).keys()].some((key) => given.has(key));
    return {
      headers: Object.fromEntries(generated.flatMap((p) => (p.header === undefined ? [] : [[p.name, p.header]]))),
      cookie: generated.flatMap((p) => p.cookie ?? []).join('; '),
      query: generated.flatMap((p) => (p.query !== undefined && absent(p.query, p.name) ? [p.query] : [])).join('&'),
    };
  }

  private readonly requiredValues = new Map<Operation, Array<Written & { name: string }>>();

  /** Credentials for one of an operation's security alternatives (the first by default), made of the token: headers, and a query string for an apiKey in the query. */
  credentials(op: Operation, token = this.settings.token ?? '', alternative = 0): { headers: Record<string, string>; query: string } {
    const headers: Record<string, string> = {};
    const query: string[] = [];
    for (const { scheme } of op.security[alternative] ?? []) {
      const { header, query: param, cookie } = credentialFor(scheme, token);
      if (header) headers[header[0]] = header[1];
      if (param) query.push(`${encodeURIComponent(param[0])}=${encodeURIComponent(param[1])}`);
      if (cookie) headers.Cookie = [headers.Cookie, `${cookie[0]}=${cookie[1]}`].filter(Boolean).join('; ');
    }
    return { headers, query: query.join('&') };
  }

}

/** Extra headers without those the operation's security schemes read (an unauthenticated case sends no credentials). */
function withoutCredentials(headers: Record<string, string>, op: Operation): Record<string, string> {
  const names = new Set(['authorization', 'cookie']);
  for (const alternative of op.security) for (const { scheme } of alternative) names.add(credentialFor(scheme, '').header?.[0].toLowerCase() ?? 'cookie');
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));
}
