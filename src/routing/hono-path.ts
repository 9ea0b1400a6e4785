/**
 * Stage 3a: OpenAPI path templates as Hono routes, and the order to register them in.
 *
 * `/pets/{petId}` becomes `/pets/:p0`. A parameter inside a segment (`/{provider}.json`) becomes
 * a regex-constrained Hono parameter (`/:p0{[^/]+?\.json}`) split into its parameters here.
 * Parameters are renamed `p0`, `p1`... so that any name the document uses is safe for Hono.
 */

export interface HonoRoute {
  /** The template as written: `/pets/{petId}`. */
  template: string;
  /** The Hono path: `/pets/:p0`. */
  honoPath: string;
  /** Reads the document's path parameters from Hono's. */
  params: (honoParam: (name: string) => string | undefined) => Record<string, string>;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** @example toHonoRoute('/pets/{petId}', '/v1').honoPath // '/v1/pets/:p0' */
export function toHonoRoute(template: string, basePath = ''): HonoRoute {
  const readers: Array<(get: (name: string) => string | undefined, out: Record<string, string>) => void> = [];
  const segments = template.split('/').map((segment, index) => {
    const names = [...segment.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    if (names.length === 0) return segment;
    const slot = `p${index}`;
    if (segment === `{${names[0]}}`) {
      readers.push((get, out) => void (out[names[0]] = get(slot) ?? ''));
      return `:${slot}`;
    }
    // Mixed segment: literal text around one or more parameters.
    const literals = segment.split(/\{[^}]+\}/);
    const splitter = new RegExp(`^${mixedSegmentPattern(literals, true)}$`);
    readers.push((get, out) => {
      const match = splitter.exec(get(slot) ?? '');
      names.forEach((name, i) => (out[name] = match?.[i + 1] ?? ''));
    });
    return `:${slot}{${mixedSegmentPattern(literals, false)}}`;
  });
  return {
    template,
    honoPath: `${basePath}${segments.join('/')}` || '/',
    params: (get) => {
      const out: Record<string, string> = {};
      for (const read of readers) read(get, out);
      return out;
    },
  };
}

/**
 * The regex of a segment mixing literal text and parameters (`{a}-{b}.json`: literals `''`, `'-'`,
 * `'.json'`), one capture per parameter, matched in linear time whatever the path: no two
 * quantifiers may compete for the same characters, or a long segment that fails to match
 * backtracks for ever (`{a}-{b}-{c}` against 2,000 dashes took 2 s, and the cost grows with the
 * cube of the length). So a parameter followed by literal text stops at the first character of
 * that text (`{a}-{b}` splits `x-y-z` into `x` and `y-z`, as the lazy match it replaces did), a
 * parameter followed directly by another takes one character, and only the last parameter may hold
 * anything but a slash (lazily, before a trailing literal: `{name}.json` reads `v1.2.json` as `v1.2`).
 * With `capture`, for splitting the parameters out; without, as Hono's constraint on the segment.
 */
function mixedSegmentPattern(literals: string[], capture: boolean): string {
  let pattern = escapeRegex(literals[0]);
  for (let i = 1; i < literals.length; i++) {
    const next = literals[i];
    const last = i === literals.length - 1;
    const value = last ? '[^/]+?' : next === '' ? '[^/]' : `[^/${escapeClass(next[0])}]+`;
    pattern += `${capture ? `(${value})` : value}${escapeRegex(next)}`;
  }
  return pattern;
}

const escapeClass = (char: string) => char.replace(/[\]^-]/g, '\\$&');

/**
 * Specific before general: at the first segment where two templates differ, a literal beats a
 * mixed segment, which beats a bare parameter (`/pets/mine` before `/pets/{petId}`).
 */
export function compareTemplates(a: string, b: string): number {
  const rank = (segment: string) => (!segment.includes('{') ? 0 : /^\{[^}]+\}$/.test(segment) ? 2 : 1);
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const diff = rank(as[i]) - rank(bs[i]);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * A regular expression matching the paths a Hono route matches, for answering 405 and OPTIONS
 * outside the router: `/pets/:p1` matches `/pets/7`, a constrained `:p1{[^/]+?\\.json}` its pattern.
 */
export function pathMatcher(honoPath: string): RegExp {
  // Segments split on slashes outside a constraint's braces (`[^/]+?` holds a slash).
  const segments = honoPath.match(/(?:[^/{]|\{[^}]*\})+/g) ?? [];
  const source = ['', ...segments]
    .map((segment) => {
      const constrained = /^:[^{]+\{(.+)\}$/.exec(segment);
      if (constrained) return `(?:${constrained[1]})`;
      return segment.startsWith(':') ? '[^/]+' : escapeRegex(segment);
    })
    .join('/');
  // As strict as Hono's router: `/pets/` is not `/pets`, and `/` (or `/v1/`) keeps its slash.
  return new RegExp(`^${source}${honoPath.endsWith('/') ? '/' : ''}$`);
}
