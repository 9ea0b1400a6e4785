/**
 * Stage 2: flatten the dereferenced document into a list of operations, once.
 */
import type { OpenAPISecurityScheme } from '../document/openapi.js';
import type { ParameterSpec, SchemaObject } from '../document/schema.js';
import { HTTP_METHODS, type HeaderSpec, type Operation, type ResponseSpec, type SecurityAlternative } from './operation.js';

/**
 * @example
 * const operations = buildOperations(doc.api);
 * operations.find((op) => op.id === 'createPet')?.path // '/pets'
 */
export function buildOperations(api: SchemaObject): Operation[] {
  const operations: Operation[] = [];
  const schemes: SchemaObject = api.components?.securitySchemes ?? {};
  for (const [path, pathItem] of Object.entries<SchemaObject>(api.paths ?? {})) {
    if (!pathItem || typeof pathItem !== 'object') continue;
    for (const method of HTTP_METHODS) {
      const source = pathItem[method] as SchemaObject | undefined;
      if (!source || typeof source !== 'object') continue;
      operations.push({
        id: typeof source.operationId === 'string' && source.operationId ? source.operationId : `${method.toUpperCase()} ${path}`,
        method,
        path,
        parameters: mergeParameters(pathItem.parameters, source.parameters),
        requestBody: source.requestBody
          ? { required: source.requestBody.required === true, content: source.requestBody.content ?? {} }
          : undefined,
        responses: buildResponses(source.responses),
        security: buildSecurity(source.security ?? api.security ?? [], schemes),
        deprecated: source.deprecated === true,
        source,
      });
    }
  }
  return operations;
}

/** Operation-level parameters override path-level ones with the same name and location. */
function mergeParameters(pathLevel: unknown, operationLevel: unknown): ParameterSpec[] {
  const byKey = new Map<string, ParameterSpec>();
  for (const list of [pathLevel, operationLevel]) {
    if (!Array.isArray(list)) continue;
    for (const p of list as SchemaObject[]) {
      if (!p || typeof p.name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(p.in)) continue;
      byKey.set(`${p.in}:${p.name}`, normaliseParameter(p));
    }
  }
  return [...byKey.values()];
}

function normaliseParameter(p: SchemaObject): ParameterSpec {
  const style = p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple');
  // OpenAPI: a parameter has `schema` or `content`, and `content` has exactly one entry.
  const [mediaType, content] = p.schema || !p.content ? [] : (Object.entries<SchemaObject>(p.content)[0] ?? []);
  return {
    name: p.name,
    in: p.in,
    required: p.in === 'path' || p.required === true,
    style,
    explode: typeof p.explode === 'boolean' ? p.explode : style === 'form',
    schema: p.schema ?? content?.schema ?? {},
    ...(mediaType === undefined ? {} : { mediaType }),
  };
}

function buildResponses(responses: SchemaObject | undefined): ResponseSpec[] {
  return Object.entries<SchemaObject>(responses ?? {}).map(([status, response]) => ({
    status,
    headers: Object.fromEntries(
      Object.entries<SchemaObject>(response?.headers ?? {}).map(([name, header]): [string, HeaderSpec] => [
        name,
        { required: header?.required === true, schema: header?.schema ?? {} },
      ]),
    ),
    content: response?.content ?? {},
  }));
}

function buildSecurity(requirements: SchemaObject[], schemes: SchemaObject): SecurityAlternative[] {
  return requirements.map((requirement) =>
    Object.keys(requirement ?? {})
      .filter((name) => schemes[name])
      .map((name) => ({ name, scheme: schemes[name] as OpenAPISecurityScheme })),
  );
}

/** The declared response for a status: exact code first, then `4XX`-style ranges, then `default`. */
export function findResponse(operation: Operation, status: number): ResponseSpec | undefined {
  const code = String(status);
  return (
    operation.responses.find((r) => r.status === code) ??
    operation.responses.find((r) => r.status.toUpperCase() === `${code[0]}XX`) ??
    operation.responses.find((r) => r.status === 'default')
  );
}
