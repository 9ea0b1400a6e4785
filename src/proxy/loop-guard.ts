/**
 * A proxy that forwards to itself: every request would come back to it, be forwarded again, and
 * nest until sockets or time run out (`--upstream http://127.0.0.1:4022 --port 4022`: 258 nested
 * exchanges, then 504 after 30 s). `upstreamIsItself` refuses that before the proxy starts;
 * `loopGuard` is the backstop for an address that leads back some other way (a name of this
 * machine, a port forward, another proxy): each proxy adds its own hop to `Via` (RFC 9110,
 * section 7.6.3) and knows it again when a request comes back carrying it.
 */

/** Names that reach this machine whatever it is called: loopback addresses and the any-addresses. */
const LOOPBACK_OR_ANY = /^(localhost|127(\.\d{1,3}){3}|::1|0\.0\.0\.0|::|0:0:0:0:0:0:0:[01])$/i;
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Whether the upstream is the proxy's own listening address: the same port, and a host that is
 * the one it listens on, or a loopback or any-address name while it listens on one of those.
 * A free port (0) is never its own: it is not known yet.
 *
 * @example upstreamIsItself('http://127.0.0.1:4022', { host: '127.0.0.1', port: 4022 }) // true
 */
export function upstreamIsItself(upstream: string, listen: { host: string; port: number }): boolean {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    return false;
  }
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  if (listen.port === 0 || port !== listen.port) return false;
  const host = bare(url.hostname);
  const own = bare(listen.host);
  return host === own || (LOOPBACK_OR_ANY.test(own) && LOOPBACK_OR_ANY.test(host));
}

/** A host name without IPv6 brackets, in lower case. */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

export interface LoopGuard {
  /** The `Via` to send on: the request's own, with this proxy's hop added. */
  via: (incoming: string | null | undefined) => string;
  /** Whether a request's `Via` names this proxy: it went through it already. */
  cameBack: (incoming: string | null | undefined) => boolean;
}

/** A guard with a name of its own (`petstore-mock-kit-` and 64 random bits), so two proxies in a chain tell each other apart. */
export function loopGuard(): LoopGuard {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const name = `petstore-mock-kit-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const hop = `1.1 ${name}`;
  return {
    via: (incoming) => (incoming ? `${incoming}, ${hop}` : hop),
    // Each hop is `protocol received-by [comment]`, separated by commas.
    cameBack: (incoming) => Boolean(incoming) && incoming!.split(',').some((entry) => entry.trim().split(/\s+/)[1] === name),
  };
}
