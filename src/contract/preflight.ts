/**
 * Before the phases: is there anything to check at this address, with these credentials? A refused
 * credential stops the run with one sentence naming the scheme, what was sent and what to try; a
 * base URL where every path of the document answers 404, or the same page as a path the document
 * does not have, stops it too. Either is a `ContractSetupError` (exit 2), never a wall of findings.
 */
import type { SecuritySchemeObject } from '../openapi/document/objects.js';
import type { Operation } from '../openapi/operations/operation.js';
import { credentialFor } from '../openapi/operations/credential-hint.js';
import type { Exchange } from './case.js';
import type { ContractContext } from './context.js';

/** The suite cannot judge a server that refuses its credentials, or an address that is not the API: it stops instead. */
export class ContractSetupError extends Error {
  override readonly name = 'ContractSetupError';
}

/** Parameterless GETs sent to tell a wrong base URL: enough to be sure, few enough to stop at once. */
const ADDRESS_PROBES = 3;
/** A path no document plausibly has: what the server answers for "nothing here". */
const NOWHERE = '/contract-suite-no-such-path';

/** Sends the first secured parameterless GET; throws the sentence when the server refuses the credentials. Returns the exchange (or none). */
export async function checkCredentials(ctx: ContractContext): Promise<Exchange | undefined> {
  const probe = ctx.operations.find((op) => op.method === 'get' && !op.path.includes('{') && op.security.length > 0 && op.security.every((a) => a.length > 0));
  if (!probe) return undefined;
  const exchange = await ctx.request(probe, { label: 'check that the token is accepted', once: true });
  if (!ctx.sent(exchange)) return undefined;
  if (exchange.error) throw new ContractSetupError(`Cannot talk to ${ctx.options.baseUrl}: ${exchange.error.replace(/^the connection failed \((.*)\)$/, '$1')}.`);
  if (exchange.status === 401 || exchange.status === 403) throw new ContractSetupError(refusedCredentials(ctx, probe, exchange.status));
  return exchange;
}

/** One sentence: the scheme, what was sent (the token, a -H header, or nothing), and what to try. */
function refusedCredentials(ctx: ContractContext, op: Operation, status: number): string {
  const { name, scheme } = op.security[0][0];
  const answered = `${op.method.toUpperCase()} ${op.path} answered ${status}`;
  if (ctx.options.token !== undefined) {
    return `The server refused the credentials: ${answered} to the token (--token) sent as the document's scheme \`${name}\` says, ${sentAs(scheme)}; ${tryInstead(scheme)}. Nothing was checked.`;
  }
  const given = Object.keys(ctx.options.headers ?? {}).filter((header) => credentialHeaders(op).has(header.toLowerCase()));
  if (given.length) {
    return `The server refused the credentials: ${answered} to the header${given.length > 1 ? 's' : ''} ${given.join(', ')} given with -H, where the document's scheme \`${name}\` asks for ${kindOf(scheme)}. Nothing was checked.`;
  }
  return `No token was given (--token or CONTRACT_TOKEN), and ${op.method.toUpperCase()} ${op.path}, secured by the scheme \`${name}\` (${kindOf(scheme)}), answered ${status}. Nothing was checked.`;
}

/** `an API key in the header Authorization`, `a bearer token`, ... */
function kindOf(scheme: SecuritySchemeObject): string {
  if (scheme.type === 'apiKey') return `an API key in the ${scheme.in === 'query' ? 'query parameter' : scheme.in === 'cookie' ? 'cookie' : 'header'} ${String(scheme.name)}`;
  if (scheme.type === 'http' && /^basic$/i.test(String(scheme.scheme))) return 'HTTP Basic credentials';
  return `a bearer token (${scheme.type === 'http' ? 'HTTP bearer' : String(scheme.type)})`;
}

/** How the suite sent the token for a scheme: `as it stands in the header Authorization`. */
function sentAs(scheme: SecuritySchemeObject): string {
  if (scheme.type === 'apiKey') return `as it stands in the ${scheme.in === 'query' ? 'query parameter' : scheme.in === 'cookie' ? 'cookie' : 'header'} ${String(scheme.name)}`;
  if (scheme.type === 'http' && /^basic$/i.test(String(scheme.scheme))) return 'as the user of an HTTP Basic credential with no password';
  return 'as `Authorization: Bearer <token>`';
}

/** What to try next, by scheme: the header a server of that shape most often wants in its place. */
function tryInstead(scheme: SecuritySchemeObject): string {
  if (scheme.type === 'apiKey' && scheme.in === 'header' && /^authorization$/i.test(String(scheme.name))) {
    return `if the server wants a bearer token there, try -H 'Authorization: Bearer ...' in place of --token`;
  }
  if (scheme.type === 'http' && /^basic$/i.test(String(scheme.scheme))) return `for a user and a password, try -H 'Authorization: Basic <base64 of user:password>' in place of --token`;
  return 'check that the token is one this server accepts, or send the credentials it reads with -H';
}

/** The header names an operation's schemes read (and Authorization and Cookie), lower-cased. */
function credentialHeaders(op: Operation): Set<string> {
  const names = new Set(['authorization', 'cookie']);
  for (const alternative of op.security) for (const { scheme } of alternative) names.add(credentialFor(scheme, '').header?.[0].toLowerCase() ?? 'cookie');
  return names;
}

/**
 * Throws when the base URL is not the API: every parameterless GET of the document tried answered
 * 404, or the same page (status, media type and text) as a path the document does not have, in a
 * media type none of its responses declares.
 */
export async function checkAddress(ctx: ContractContext, first: Exchange | undefined): Promise<void> {
  const tried = first ? [first] : [];
  for (const op of ctx.operations.filter((o) => o.method === 'get' && !o.path.includes('{') && o !== first?.case.operation)) {
    if (tried.length >= ADDRESS_PROBES) break;
    const exchange = await ctx.request(op, { label: 'check that the base URL is the API', once: true });
    if (ctx.sent(exchange) && !exchange.error) tried.push(exchange);
  }
  if (tried.length === 0) return;
  const names = tried.map((e) => `${e.case.method} ${e.case.operation.path}`).join(', ');
  const question = `is the base URL right (--base-url, with any base path)? Nothing was checked.`;
  if (tried.every((e) => e.status === 404)) {
    throw new ContractSetupError(`Every path of the document the suite tried at ${ctx.options.baseUrl} answered 404 (${names}): ${question}`);
  }
  // One page for every path (a web app's catch-all), in a media type no operation declares: only
  // then is a path the document does not have asked, to see whether it gets that page too. An API
  // that answers one JSON body to everything, or redirects everything, is judged, not stopped.
  const page = tried[0];
  const onePage = page.status >= 200 && page.status < 300 && tried.every((e) => e.status === page.status && e.text === page.text && mediaType(e) === mediaType(page) && !declares(e.case.operation, mediaType(e)));
  if (!onePage) return;
  const nowhere = await ctx.peek({ ...page.case, path: NOWHERE, label: 'a path the document does not have' });
  if (!nowhere.error && nowhere.status === page.status && nowhere.text === page.text && mediaType(nowhere) === mediaType(page)) {
    throw new ContractSetupError(`Every path of the document the suite tried at ${ctx.options.baseUrl} answered the same ${nowhere.status} ${mediaType(nowhere)} page as a path the document does not have (${names}): ${question}`);
  }
}

function mediaType(exchange: Exchange): string {
  return exchange.headers.get('content-type')?.split(';')[0].trim().toLowerCase() || 'untyped';
}

function declares(op: Operation, media: string): boolean {
  return op.responses.some((r) => Object.keys(r.content).some((declared) => declared.split(';')[0].trim().toLowerCase() === media));
}
