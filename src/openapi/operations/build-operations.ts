/**
 * Stage 2: flatten the dereferenced document into a list of operations, once.
 */
import type { DocumentObject, ParameterObject, ResponseObject, SecurityRequirementObject, SecuritySchemeObject } from '../document/objects.js';
import type { ParameterSpec, SchemaObject } from '../document/schema.js';
import { isJsonObject, objectOr } from '../../core/json-object.js';
import { HTTP_METHODS, type HeaderSpec, type Operation, type ResponseSpec, type SecurityAlternative } from './operation.js';

/**
 * @example
 * const operations = buildOperations(doc.api);
 * operations.find((op) => op.id === 'createPet')?.path // '/pets'
 */
export function buildOperations(api: DocumentObject): Operation[] {
  const operations: Operation[] = [];
  const schemes = api.components?.securitySchemes ?? {};
  for (const [path, pathItem] of Object.entries(api.paths ?? {})) {
    if (!isJsonObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const source = pathItem[method];
      if (!isJsonObject(source)) continue;
      const body = isJsonObject(source.requestBody) ? source.requestBody : undefined;
      operations.push({
        id: typeof source.operationId === 'string' && source.operationId ? source.operationId : `${method.toUpperCase()} ${path}`,
        method,
        path,
        parameters: mergeParameters(pathItem.parameters, source.parameters),
        requestBody: body ? { required: body.required === true, content: objectOr(body.content) } : undefined,
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
    for (const p of list as unknown[]) {
      if (!isJsonObject(p) || typeof p.name !== 'string' || !isLocation(p.in)) continue;
      byKey.set(`${p.in}:${p.name}`, normaliseParameter(p as ParameterObject & { in: ParameterSpec['in'] }));
    }
  }
  return [...byKey.values()];
}

const isLocation = (value: unknown): value is ParameterSpec['in'] => value === 'path' || value === 'query' || value === 'header' || value === 'cookie';

function normaliseParameter(p: ParameterObject & { in: ParameterSpec['in'] }): ParameterSpec {
  const style = typeof p.style === 'string' ? p.style : p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple';
  // OpenAPI: a parameter has `schema` or `content`, and `content` has exactly one entry.
  const [mediaType, content] = p.schema || !p.content ? [] : (Object.entries(objectOr(p.content))[0] ?? []);
  return {
    name: p.name,
    in: p.in,
    required: p.in === 'path' || p.required === true,
    style,
    explode: typeof p.explode === 'boolean' ? p.explode : style === 'form',
    schema: objectOr(p.schema ?? content?.schema),
    ...(mediaType === undefined ? {} : { mediaType }),
  };
}

function buildResponses(responses: Record<string, ResponseObject> | undefined): ResponseSpec[] {
  return Object.entries(objectOr(responses)).map(([status, response]) => ({
    status,
    headers: Object.fromEntries(
      Object.entries(objectOr(response?.headers)).map(([name, header]): [string, HeaderSpec] => [
        name,
        { required: header?.required === true, schema: objectOr(header?.schema) },
      ]),
    ),
    content: objectOr(response?.content),
  }));
}

function buildSecurity(requirements: SecurityRequirementObject[], schemes: Record<string, SecuritySchemeObject>): SecurityAlternative[] {
  return (Array.isArray(requirements) ? requirements : []).map((requirement) =>
    Object.keys(objectOr(requirement))
      .filter((name) => isJsonObject(schemes[name]))
      .map((name) => ({ name, scheme: schemes[name], scopes: scopesOf(requirement[name]) })),
  );
}

/** The scopes a requirement names for a scheme: its strings, once each. */
function scopesOf(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.filter((scope): scope is string => typeof scope === 'string'))] : [];
}

/** The schema of an operation's request body as a record reads it: its JSON or form media type's. */
export function requestBodySchema(operation: Operation): SchemaObject | undefined {
  const content = operation.requestBody?.content ?? {};
  const media = Object.keys(content).find((m) => /json|form/i.test(m));
  return media ? content[media].schema : undefined;
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
