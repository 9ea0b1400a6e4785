/**
 * The answer to an action's result (or a forced one): a JSON value in the declared media type
 * `Accept` chooses (`application/json` on the fast path, with headers built once per operation),
 * the rest as the action wrote it, always with the security headers.
 */
import { SECURITY_HEADERS, sandboxed } from '../../../core/security-headers.js';
import { isBytes } from '../../../core/bytes.js';
import { isJsonMediaType } from '../../../core/media-type.js';
import type { Registry } from '../../../core/registry.js';
import type { Operation, ResponseSpec } from '../../../openapi/operations/operation.js';
import { findResponse } from '../../../openapi/operations/build-operations.js';
import { encoderFor, type BodyEncoder } from '../../respond/body-encoders.js';
import { acceptsAnything, choose, declaredTypes, representations, type Representation } from '../../respond/negotiate.js';
import { successResponse } from '../../respond/static-response.js';
import type { ActionResult } from '../exchange.js';
import type { Ongoing } from './stage.js';
import { fitted } from './trace.js';

/** Writes a result as the answer to a request under way. */
export type Respond = (result: ActionResult, request: Ongoing) => Response;

/**
 * The responder of one operation. `baseHeaders`: the headers every answer carries (the
 * deprecation ones); a request whose `extra` is that very object takes the shared JSON headers.
 */
export function compileRespond(operation: Operation, encoders: Registry<BodyEncoder>, baseHeaders: Record<string, string>): Respond {
  /** The headers of JSON answers without CORS: built once, shared by those without headers of their own. */
  const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({ ...SECURITY_HEADERS, ...baseHeaders, 'Content-Type': 'application/json' });
  const canWrite = (essence: string) => encoderFor(encoders, essence) !== undefined;
  const primary = successResponse(operation);
  /** The media types each status's response can be written in, the mock's preferred first; made on first use. */
  const byStatus = new Map<number, { response?: ResponseSpec; choices: Representation[] }>();
  const declaredFor = (status: number) => {
    let found = byStatus.get(status);
    if (!found) {
      const response = findResponse(operation, status);
      byStatus.set(status, (found = { response, choices: response ? representations(response, canWrite) : [] }));
    }
    return found;
  };
  /** A JSON value as a declared media type other than `application/json`: JSON text for a JSON one, else its encoder's output. */
  const encoded = (result: ActionResult, as: Representation): ActionResult => {
    const headers = { ...result.headers, 'Content-Type': as.type };
    if (isJsonMediaType(as.essence)) return { ...result, headers };
    return { status: result.status, headers, body: encoderFor(encoders, as.essence)!(result.body ?? (result.json === undefined ? undefined : JSON.parse(result.json)), as.type) };
  };

  return (result, { extra, accept, trace }) => {
    if (result.json !== undefined || isJsonValue(result.body)) {
      if (result.headers?.['Content-Type'] === undefined) {
        const { response, choices } = declaredFor(result.status);
        const first = choices[0];
        if (first === undefined) {
          if (response && Object.keys(response.content).length > 0) fitted(trace, `${result.status}: the mock writes none of the media types it is declared in (${declaredTypes(response.content)}); answered application/json.`, true);
        } else if (!(acceptsAnything(accept) || (accept === 'application/json' && first.essence === 'application/json')) || first.type !== 'application/json') {
          const chosen = choose(choices, accept)!;
          if (!chosen.fits && response !== primary) fitted(trace, `Accept ${accept} takes none of the media types declared for ${result.status} (${declaredTypes(response!.content)}); answered ${chosen.type}, the first of them.`, false);
          if (chosen.type !== 'application/json') return buildResponse(encoded(result, chosen), extra);
        }
      }
      if (extra === baseHeaders) {
        // An action's own Content-Type may not be JSON (a forced example sent as HTML).
        const headers = result.headers ? sandboxed({ ...jsonHeaders, ...result.headers }) : jsonHeaders;
        return new Response(result.json ?? JSON.stringify(result.body), { status: result.status, headers });
      }
    }
    return buildResponse(result, extra);
  };
}

/** A body sent as JSON: anything but nothing, bytes or text. */
function isJsonValue(body: unknown): boolean {
  return body !== undefined && typeof body !== 'string' && !isBytes(body);
}

function buildResponse(result: ActionResult, extra: Record<string, string>): Response {
  // One headers object per response.
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...extra, ...result.headers };
  if (result.body === undefined) return new Response(null, { status: result.status, headers });
  if (isBytes(result.body)) return new Response(result.body as Uint8Array<ArrayBuffer>, { status: result.status, headers: sandboxed(headers) });
  if (typeof result.body === 'string' && !/json/.test(headers['Content-Type'] ?? 'json')) return new Response(result.body, { status: result.status, headers: sandboxed(headers) });
  headers['Content-Type'] ??= 'application/json';
  return new Response(result.json ?? JSON.stringify(result.body), { status: result.status, headers: sandboxed(headers) });
}
