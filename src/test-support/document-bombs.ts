/**
 * Documents that are small as written and huge when expanded (issue 37): a YAML alias bomb
 * (billion laughs), `$ref`s that fan out, and schemas whose values multiply. Each is a valid
 * OpenAPI 3.0 document with one operation, `GET /things`, answered from the schema that expands.
 */

/** An OpenAPI 3.0 document whose `GET /things` answers `schema`, with the members given beside `paths` (`components`, extensions). */
export function documentAnswering(schema: unknown, members: Record<string, unknown> = {}, request = false): Record<string, unknown> {
  const content = { 'application/json': { schema } };
  const things = {
    get: { operationId: 'listThings', responses: { '200': { description: 'the things', content } } },
    ...(request ? { post: { operationId: 'sendThings', requestBody: { required: true, content }, responses: { '204': { description: 'taken' } } } } : {}),
  };
  return { openapi: '3.0.3', info: { title: 'A bomb', version: '1' }, paths: { '/things': things }, ...members };
}

/**
 * The billion laughs in YAML: `a` is a list of `width` strings, each next anchor a list of `width`
 * aliases of the one before, `levels` deep: width^levels strings once expanded. Nine by nine is
 * 700 bytes and 387,420,489 strings.
 */
export function aliasBomb(levels = 9, width = 9): string {
  const names = 'abcdefghijklmnopqrstuvwxyz';
  const lines = ['openapi: 3.0.3', 'info: {title: A bomb, version: "1"}', 'paths:', '  /things:', '    get:', '      responses:', "        '200':", '          description: the things', '          content:', '            application/json:', '              schema: {type: array, items: {type: string}}'];
  lines.push(`x-${names[0]}: &${names[0]} [${Array(width).fill('x').join(',')}]`);
  for (let level = 1; level < levels; level++) {
    lines.push(`x-${names[level]}: &${names[level]} [${Array(width).fill(`*${names[level - 1]}`).join(',')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `$ref`s that fan out, in JSON: `L0` has `fan` properties that are each an `L1`, which has `fan`
 * that are each an `L2`, ..., `levels` deep, down to a string: fan^(levels-1) strings. Under
 * `components.schemas` (`#/components/schemas/L1`) or elsewhere (`#/x-defs/L1`: not a named schema).
 * `required` makes every property required (so a generated value must hold them all).
 */
export function refFanOut({ levels = 10, fan = 10, required = false, under = 'components/schemas', request = false }: { levels?: number; fan?: number; required?: boolean; under?: 'components/schemas' | 'x-defs'; request?: boolean } = {}): string {
  const schemas: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/${under}/L${level + 1}` };
    const names = Array.from({ length: fan }, (_, i) => `p${i}`);
    schemas[`L${level}`] =
      level === levels - 1
        ? { type: 'string' }
        : { type: 'object', ...(required ? { required: names } : {}), properties: Object.fromEntries(names.map((name) => [name, next])) };
  }
  const members = under === 'x-defs' ? { 'x-defs': schemas } : { components: { schemas } };
  return JSON.stringify(documentAnswering({ $ref: `#/${under}/L0` }, members, request));
}
