/**
 * Where a client reached the mock: the origin and the path prefix it used. Every URL the mock
 * writes (a `Location`, a page's `Link`, a record's own link, a problem's `instance`) is a path of
 * the mock turned into the client's URL here, so that following it stays where the client is:
 * in-process, behind MSW with a `baseUrl` of its own, mounted under a prefix in another server, or
 * behind a reverse proxy that strips one (`X-Forwarded-Prefix`, read with `trustProxy` only).
 */
import type { Context } from 'hono';
import type { HeaderReader } from './request-reader.js';

/**
 * The key of the Hono env (`app.fetch(request, env)`) by which a host says where it serves the
 * mock. `mswHandlers` sets it; a server that mounts the mock's app under a path can too:
 * `app.mount('/api', mock.app.fetch, { optionHandler: (c) => [{ [MOUNT_ENV]: { prefix: '/api' } }] })`.
 */
export const MOUNT_ENV = 'petstoreMockMount';

/** Where a host serves the mock's paths. */
export interface MountPoint {
  /** What the client puts in front of the mock's paths: `/api` when `/api/v1/pets` reaches the mock's `/v1/pets`. */
  prefix: string;
  /**
   * The client's path for the document's base path, where the host serves the document's paths
   * under a base of its own (MSW's `baseUrl` `/api` for the document's `/v1`: `/api/pets` reaches
   * `/v1/pets`). Default: the prefix, then the document's base path.
   */
  basePath?: string;
}

/** A path prefix a client may give: segments of URL path characters, no empty one (`//` would name another host). */
const PREFIX = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*$/;
const HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

export interface ClientBaseOptions {
  /** The document's base path (`/v1`, or `''`). */
  basePath: string;
  /** The mock runs behind a reverse proxy: its `X-Forwarded-Proto`, `-Host` and `-Prefix` say where clients reach it. */
  trustProxy?: boolean;
}

/** The client's URLs for the mock's paths, for one request. */
/** Where the client reached the mock, as an action sees it: the client's path and URL for a path of the mock. */
export interface ClientUrls {
  /** The client's path for a path of the mock: `/api/pets/21` for `/pets/21` behind MSW at `http://app.test/api`. */
  path(mockPath: string): string;
  /** The client's absolute URL for a path of the mock. */
  url(mockPath: string): string;
}

export class ClientBase implements ClientUrls {
  /** Where the mock is reached as it sees itself: the in-process default. */
  static readonly SAME = new ClientBase('http://localhost', '', '', '', '/');

  constructor(
    /** `http://app.test`: the scheme and authority the client used. */
    readonly origin: string,
    private readonly prefix: string,
    private readonly documentBase: string,
    private readonly basePath: string,
    /** The mock's path of the request itself, without its query: `/v1/pets/7`. */
    readonly requestPath: string,
  ) {}

  /**
   * The client's path (and query) for a path of the mock: `/v1/pets/21` is `/api/pets/21` behind
   * MSW with the base `/api`, `/mock/v1/pets/21` behind a proxy that strips `/mock`.
   * @example client.path('/pets?limit=2&offset=2') // '/api/pets?limit=2&offset=2'
   */
  path(mockPath: string): string {
    const { basePath } = this;
    const under = mockPath.startsWith(basePath) && (mockPath.length === basePath.length || mockPath[basePath.length] === '/' || mockPath[basePath.length] === '?');
    const path = under ? `${this.documentBase}${mockPath.slice(basePath.length)}` : `${this.prefix}${mockPath}`;
    return path === '' || path[0] === '?' ? `/${path}` : path;
  }

  /** The client's absolute URL for a path of the mock: `http://app.test/api/pets/21`. */
  url(mockPath: string): string {
    return `${this.origin}${this.path(mockPath)}`;
  }

  /** The client's URL of the request itself, without its query (a problem's `instance`): its path, or with `absolute` its whole URL. */
  request(absolute = false): string {
    return absolute ? this.url(this.requestPath) : this.path(this.requestPath);
  }

  /** Whether the client's paths are the mock's own (nothing to rewrite). */
  get same(): boolean {
    return this.prefix === '' && this.documentBase === this.basePath;
  }
}

/**
 * Where the request behind `c` reached the mock: its URL's origin, the host's mount point (the
 * Hono env's `MOUNT_ENV`), and with `trustProxy` the proxy's `X-Forwarded-Proto`, `-Host` and
 * `-Prefix`. A forwarded value that is not a scheme, a host or a path is ignored.
 */
export function clientBaseOf(c: Context, header: HeaderReader, options: ClientBaseOptions): ClientBase {
  const url = c.req.url;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const queryStart = url.indexOf('?', pathStart);
  let origin = url.slice(0, pathStart);
  let forwarded = '';
  if (options.trustProxy) {
    const proto = first(header('x-forwarded-proto'))?.toLowerCase();
    const host = first(header('x-forwarded-host'));
    const scheme = proto === 'http' || proto === 'https' ? proto : origin.slice(0, origin.indexOf(':'));
    if (host && HOST.test(host)) origin = `${scheme}://${host}`;
    else if (proto === 'http' || proto === 'https') origin = `${scheme}${origin.slice(origin.indexOf(':'))}`;
    const prefix = first(header('x-forwarded-prefix'))?.replace(/\/+$/, '');
    if (prefix && PREFIX.test(prefix)) forwarded = prefix;
  }
  const mount = mountOf(c);
  const prefix = `${forwarded}${mount?.prefix ?? ''}`;
  const documentBase = `${forwarded}${mount?.basePath ?? `${mount?.prefix ?? ''}${options.basePath}`}`;
  return new ClientBase(origin, prefix, documentBase, options.basePath, url.slice(pathStart, queryStart < 0 ? undefined : queryStart));
}

/** The first of a header's comma-separated values, trimmed. */
function first(value: string | null | undefined): string | undefined {
  const text = value?.split(',')[0].trim();
  return text || undefined;
}

/** The mount point a host put in the Hono env, when it is one. */
function mountOf(c: Context): MountPoint | undefined {
  const env = c.env as Record<string, unknown> | undefined;
  const given = env && typeof env === 'object' ? (env[MOUNT_ENV] as Partial<MountPoint> | undefined) : undefined;
  if (!given || typeof given !== 'object' || typeof given.prefix !== 'string') return undefined;
  const prefix = given.prefix.replace(/\/+$/, '');
  const basePath = typeof given.basePath === 'string' ? given.basePath.replace(/\/+$/, '') : undefined;
  if (!PREFIX.test(prefix) || (basePath !== undefined && !PREFIX.test(basePath))) return undefined;
  return { prefix, basePath };
}
