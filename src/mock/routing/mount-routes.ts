/**
 * Stage 3, routing: every operation of the document on its Hono route, templates in ranked order
 * (a literal `/pets/mine` before `/pets/{petId}`), and the answers for what the document does not
 * declare: 405 with `Allow` for a known path with another method, 204 for its OPTIONS, 404 for an
 * unknown path.
 */
import type { Context, Hono } from 'hono';
import type { Operation } from '../../openapi/operations/operation.js';
import { errorResponse, errors } from '../../core/api-error.js';
import { respond } from '../../core/security-headers.js';
import { compareTemplates, templateMatcher, type TemplateMatcher } from '../../openapi/operations/path-template.js';
import { toHonoRoute, type HonoRoute } from './hono-path.js';

export type OperationHandler = (c: Context) => Response | Promise<Response>;

/**
 * @param handlerFor compiles one operation's pipeline, given its route
 * @param finish completes an answer built here (CORS headers, the request log)
 */
export function mountRoutes(
  app: Hono,
  operations: readonly Operation[],
  basePath: string,
  handlerFor: (operation: Operation, route: HonoRoute) => OperationHandler,
  finish: (c: Context, response: Response, started: number) => Response,
): void {
  const byTemplate = new Map<string, Operation[]>();
  for (const op of operations) byTemplate.set(op.path, [...(byTemplate.get(op.path) ?? []), op]);
  const knownPaths: Array<{ matches: TemplateMatcher; template: string; allow: string[] }> = [];
  const documentMethods = [...new Set(operations.map((op) => op.method.toUpperCase()))].filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
  for (const template of [...byTemplate.keys()].sort(compareTemplates)) {
    const route = toHonoRoute(template, basePath);
    const pathOps = byTemplate.get(template)!;
    for (const operation of pathOps) app.on(operation.method.toUpperCase(), route.honoPath, handlerFor(operation, route));
    const allow = pathOps.map((op) => op.method.toUpperCase());
    if (allow.includes('GET') && !allow.includes('HEAD')) allow.push('HEAD');
    knownPaths.push({ matches: templateMatcher(template, basePath), template, allow });
    // Methods the document uses elsewhere get a 405 here, registered in ranked order, so a literal
    // path (`/pets/mine`) is not answered by a template's handler (`DELETE /pets/{petId}`).
    const missing = documentMethods.filter((m) => !allow.includes(m));
    if (missing.length) {
      app.on(missing, route.honoPath, (c) => finish(c, errorResponse(errors.methodNotAllowed(c.req.method, template, allow)), performance.now()));
    }
  }
  // A route has one handler, so Hono skips compose (its single-handler path in #dispatch). A known path
  // with another method is recognised here instead: OPTIONS gets 204 with Allow, others 405.
  app.notFound((c) => {
    const started = performance.now();
    const path = new URL(c.req.url).pathname;
    const known = knownPaths.find((k) => k.matches(path) !== undefined);
    if (!known) return finish(c, errorResponse(errors.routeNotFound(c.req.method, path, notFoundHint(c.req.method, path, basePath, knownPaths))), started);
    if (c.req.method === 'OPTIONS') return finish(c, respond(null, 204, { Allow: [...known.allow, 'OPTIONS'].join(', ') }), started);
    return finish(c, errorResponse(errors.methodNotAllowed(c.req.method, known.template, known.allow)), started);
  });
}

/**
 * Where the document's operations are, for a path that matches none: the path without its trailing
 * slash when the document has that, else, outside the base path, the base path (and the path under
 * it, when the document has that).
 */
function notFoundHint(method: string, path: string, basePath: string, knownPaths: ReadonlyArray<{ matches: TemplateMatcher }>): string | undefined {
  const has = (candidate: string) => knownPaths.some((k) => k.matches(candidate) !== undefined);
  const without = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : undefined;
  if (without !== undefined && has(without)) return `the document's path is ${without}, without the trailing slash`;
  if (basePath === '' || path === basePath || path.startsWith(`${basePath}/`)) return undefined;
  const under = `${basePath}${path === '/' ? '' : path}`;
  return `the document's operations are served under ${basePath} (its first server's path)${has(under) ? `: ${method} ${under}` : ''}`;
}
