/**
 * Names that say their value is a secret: a JSON property's (`accessTokens`, `client_secret`,
 * `sessionId`), a header's (`X-Session-Id`, `X-Api-Key`) or a query parameter's (`access_token`,
 * `api_key`, `key`). One rule for the proxy's recorder, its log line and its violations. It errs on
 * the side of a secret: a name it takes wrongly costs a value in a log, one it misses leaks one.
 */

/** Secret wherever they appear in the name, case and separators ignored (`clientSecret`, `X-Api-Key`, `user_credentials`). */
const SECRET_PARTS = ['password', 'passwd', 'passphrase', 'secret', 'credential', 'apikey', 'privatekey', 'cookie', 'authorization'];
/** Secret as a whole word only: `sessionId`, `X-Auth`, but not `possession` or `author`. */
const SECRET_WORDS = new Set(['session', 'sessions', 'auth', 'jwt']);
/** Names ending in `token` that are a page's cursor, not a credential. */
const CURSOR_TOKEN = /(page|next|continuation|cursor|sync)tokens?$/;
/** Words that make a header or query parameter a secret's too: `?key=`, `Ocp-Apim-Subscription-Key`, `X-Amz-Signature`. */
const PARAMETER_WORDS = new Set(['key', 'sig', 'signature']);

/**
 * A property or header named like a secret: it holds `password`, `passwd`, `passphrase`, `secret`,
 * `credential`, `apikey`, `privatekey`, `cookie` or `authorization`, or ends in `token` or `tokens`
 * (not a page cursor: `nextPageToken`), case and separators ignored; or one of its words is
 * `session`, `sessions`, `auth` or `jwt` (or it starts with `session`).
 *
 * @example isSecretName('accessTokens') // true; isSecretName('X-Session-Id') // true; isSecretName('next_page_token') // false; isSecretName('author') // false
 */
export function isSecretName(name: string): boolean {
  const bare = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (SECRET_PARTS.some((part) => bare.includes(part))) return true;
  if (/tokens?$/.test(bare) && !CURSOR_TOKEN.test(bare)) return true;
  return bare.startsWith('session') || wordsOf(name).some((word) => SECRET_WORDS.has(word));
}

/**
 * A query parameter or header named like a secret: as `isSecretName`, or one of its words is `key`,
 * `sig` or `signature` (`?key=`, `?api_key=`, `Subscription-Key`).
 *
 * @example isSecretParameterName('key') // true; isSecretParameterName('access_token') // true; isSecretParameterName('limit') // false
 */
export function isSecretParameterName(name: string): boolean {
  return isSecretName(name) || wordsOf(name).some((word) => PARAMETER_WORDS.has(word));
}

/** `X-Session-Id` -> x, session, id; `accessTokens` -> access, tokens; `APIKey` -> api, key. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}
