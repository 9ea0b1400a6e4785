/**
 * Reading what a client sends the authorization server: a form body (each parameter once, empty
 * values as absent, bounded in size) and the client's credentials (RFC 6749, sections 2.3 and 3.2).
 */
import { fromBase64, fromUtf8 } from '../../core/bytes.js';
import { QueryString, decodeQueryComponent } from '../../core/query-string.js';
import { invalidRequest, OAuthError } from './oauth-answers.js';
import { MAX_FORM_BYTES, type OAuthRequest } from './oauth-options.js';

export interface Client {
  id?: string;
  secret?: string;
  /** Sent as Basic credentials (client_secret_basic). */
  basic: boolean;
}

/** Form parameters: each once (RFC 6749, section 3.1), empty values as absent. */
export interface Form {
  get(name: string): string | undefined;
  /** The first parameter given more than once, if any. */
  repeated?: string;
}

export function formOf(query: QueryString): Form {
  const entries = query.entries();
  let repeated: string | undefined;
  for (const [name, values] of entries) if (values.length > 1 && repeated === undefined) repeated = name;
  return {
    repeated,
    get: (name) => {
      const value = query.first(name);
      return value === '' ? undefined : value;
    },
  };
}

export async function readForm(request: OAuthRequest): Promise<Form | OAuthError> {
  const type = (request.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return invalidRequest('Send the parameters as an application/x-www-form-urlencoded body (RFC 6749, section 3.2).');
  const bytes = await request.body(MAX_FORM_BYTES);
  if (!bytes) return invalidRequest(`The body is larger than ${MAX_FORM_BYTES} bytes.`);
  const form = formOf(new QueryString(fromUtf8(bytes)));
  if (form.repeated) return invalidRequest(`${form.repeated} is given more than once.`);
  return form;
}

/** The client a token request names: by Basic credentials, or by `client_id` (and `client_secret`) in the body. */
export function readClient(request: OAuthRequest, form: Form, realm: string): Client | OAuthError {
  const header = request.header('authorization');
  const bodyId = form.get('client_id');
  const bodySecret = form.get('client_secret');
  if (header && /^basic /i.test(header)) {
    if (bodySecret !== undefined) return invalidRequest('The client authenticated twice (Basic and client_secret): RFC 6749 (section 2.3) allows one method.');
    const decoded = fromBase64(header.slice(6).trim());
    const text = decoded ? fromUtf8(decoded) : '';
    const colon = text.indexOf(':');
    if (!decoded || colon < 0) return new OAuthError(401, 'invalid_client', 'The Basic credentials are not base64 of client_id:client_secret.', { 'WWW-Authenticate': `Basic realm="${realm.replace(/["\\]/g, '')}"` });
    // Each part is form-encoded before base64 (RFC 6749, section 2.3.1); a client that did not encode them reads the same.
    const id = decodeQueryComponent(text.slice(0, colon)) ?? text.slice(0, colon);
    const secret = decodeQueryComponent(text.slice(colon + 1)) ?? text.slice(colon + 1);
    if (bodyId !== undefined && bodyId !== id) return invalidRequest('client_id in the body differs from the one in the Basic credentials.');
    return { id, secret, basic: true };
  }
  return { id: bodyId, secret: bodySecret, basic: false };
}

/** A 401 `invalid_client`, with the Basic challenge. */
export function invalidClient(description: string, realm: string): OAuthError {
  return new OAuthError(401, 'invalid_client', description, { 'WWW-Authenticate': `Basic realm="${realm.replace(/["\\]/g, '')}"` });
}
