/**
 * The path prefix of the document's first server, with its variables at their defaults:
 * `https://api.example.com/v1` gives `/v1`; `http://localhost:4010` gives ``.
 */

/** What is read of a document here: its servers (the library's `OpenAPIDocument` and the loaded `DocumentObject` both have them). */
interface WithServers {
  servers?: ReadonlyArray<ServerLike>;
}
interface ServerLike {
  url: string;
  variables?: Record<string, { default?: unknown }>;
}

export function serverBasePath(api: WithServers): string {
  const url = firstServerUrl(api);
  if (url === undefined) return '';
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') : url;
  return path.replace(/\/+$/, '').replace(/^(?!\/)(.)/, '/$1');
}

/** The URL of the document's first server, its variables at their defaults (`https://api.example.com/v1`), or undefined. */
export function firstServerUrl(api: WithServers): string | undefined {
  return serverUrl(Array.isArray(api.servers) ? api.servers[0] : undefined);
}

/** A Server Object's URL with its variables at their defaults, or undefined when it has no URL. */
export function serverUrl(server: ServerLike | undefined): string | undefined {
  if (!server || typeof server.url !== 'string') return undefined;
  return server.url.replace(/\{([^}]+)\}/g, (_: string, name: string) => String(server.variables?.[name]?.default ?? ''));
}
