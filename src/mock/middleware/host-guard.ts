/**
 * The Host allow-list of the whole server, mock API and admin API alike. A page that points its
 * own name at 127.0.0.1 (DNS rebinding) is same-origin with the mock in the browser's eyes, so
 * neither CORS nor an Origin check stops it; only the `Host` it sends, its own name, gives it away.
 * Loopback names always pass, with any port; other names only when listed.
 */
import type { Hono } from 'hono';
import { ApiError, errorResponse } from '../../core/api-error.js';

/**
 * Names answered besides the loopback ones: `demo.example.com` (any port),
 * `demo.example.com:8443` (that port only), `.example.com` (it and every subdomain); or `any`.
 */
export type AllowedHosts = readonly string[] | 'any';

/** Always answered, with any port. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** `0.0.0.0` and `::`: every interface, so no one name the clients will use. */
export function isWildcardAddress(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** An address or name that only this machine can reach. */
export function isLoopbackAddress(host: string): boolean {
  return /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|::ffff:127\.\d+\.\d+\.\d+)$/i.test(host);
}

/** An `--allowed-host` value: a host name or IP address, `[IPv6]`, optionally `:port`, or `.domain`. */
export function isHostPattern(text: string): boolean {
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  return new RegExp(`^(?:\\.?${label}(?:\\.${label})*|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?$`, 'i').test(text);
}

/**
 * What a server bound to `bind` answers to: the names listed, plus the bound name when it is one.
 * Bound to every interface with none listed, it answers any Host: clients reach it by names it
 * cannot know (a LAN address, a proxy's public name), and the CLI then requires an admin token.
 */
export function allowedHostsFor(bind: string, listed: readonly string[] = []): AllowedHosts {
  if (isWildcardAddress(bind)) return listed.length ? [...listed] : 'any';
  const name = bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind;
  return [...listed, name];
}

/** The Host check: `undefined` when the host of `url` is allowed, else the 421 to answer. */
export function hostCheck(allowed: AllowedHosts = []): ((url: string) => ApiError | undefined) | undefined {
  if (allowed === 'any') return undefined;
  const entries = allowed.map((host) => host.toLowerCase());
  const names = new Set<string>([...LOOPBACK_HOSTS, ...entries.filter((e) => !e.startsWith('.') && !hasPort(e))]);
  const withPort = new Set(entries.filter(hasPort));
  const domains = entries.filter((e) => e.startsWith('.'));
  const known = [...new Set([...LOOPBACK_HOSTS, ...entries])].join(', ');
  return (url) => {
    // The URL is built from the Host header (or an absolute request target): the name the client used.
    const start = url.indexOf('//') + 2;
    const slash = url.indexOf('/', start);
    const host = url.slice(start, slash < 0 ? undefined : slash).toLowerCase();
    const name = nameOf(host);
    if (names.has(name) || withPort.has(host) || domains.some((d) => name.endsWith(d) || name === d.slice(1))) return undefined;
    const shown = host.slice(0, 200);
    return new ApiError(421, 'MISDIRECTED_REQUEST', `This server does not answer to Host ${shown}; it answers to ${known}. Start it with --allowed-host ${nameOf(shown)} to serve that name.`);
  };
}

/**
 * Puts the Host check in front of every request of `app` (none when `allowed` is undefined), and
 * tells `refused` of each request it answers 421. It wraps `fetch` rather than adding a
 * middleware: a middleware on every route would take each one off Hono's single-handler fast path.
 */
export function guardHosts(app: Hono, allowed: AllowedHosts | undefined, refused?: (request: Request, status: number) => void): void {
  const check = allowed === undefined ? undefined : hostCheck(allowed);
  if (!check) return;
  const inner = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    const problem = check(request.url);
    if (!problem) return inner(request, env, executionCtx);
    refused?.(request, problem.status);
    return errorResponse(problem);
  };
}

function hasPort(host: string): boolean {
  return /:\d+$/.test(host) && (!host.startsWith('[') || host.includes(']:'));
}

function nameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}
