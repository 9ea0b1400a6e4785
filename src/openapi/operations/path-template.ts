/**
 * OpenAPI path templates (`/pets/{petId}`, `/Accounts/{Sid}.json`, `/things/{a}-{b}`): which
 * concrete path a template matches, with its parameters, and which template wins when several do.
 * One rule for everyone who matches paths: the mock's router (routing/hono-path.ts builds Hono's
 * routes from the same segment patterns), its 405 and OPTIONS answers, the in-process mock's
 * `handles`, and the contract suite reading back a `Location` or a request's parameters.
 *
 * Matching is on the path as sent (percent-encoded), segment by segment, and strict: `/pets/` is
 * not `/pets`. A parameter holds one non-empty segment; its value is given decoded.
 */

const escapeRegex = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
const escapeClass = (char: string) => char.replace(/[\]^\\-]/g, '\\$&');

/** The parameter names a segment holds, in order: `{a}-{b}.json` gives `a`, `b`. */
export function segmentParameters(segment: string): string[] {
  return [...segment.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
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
export function mixedSegmentPattern(segment: string, capture: boolean): string {
  const literals = segment.split(/\{[^}]+\}/);
  let pattern = escapeRegex(literals[0]);
  for (let i = 1; i < literals.length; i++) {
    const next = literals[i];
    const last = i === literals.length - 1;
    const value = last ? '[^/]+?' : next === '' ? '[^/]' : `[^/${escapeClass(next[0])}]+`;
    pattern += `${capture ? `(${value})` : value}${escapeRegex(next)}`;
  }
  return pattern;
}

/** Reads one segment of a path into `out`, or says it does not match. */
type SegmentMatcher = (segment: string, out: Record<string, string>) => boolean;

function segmentMatcher(part: string): SegmentMatcher {
  const names = segmentParameters(part);
  if (names.length === 0) return (segment) => segment === part;
  if (part === `{${names[0]}}`) return (segment, out) => segment !== '' && ((out[names[0]] = decode(segment)), true);
  const splitter = new RegExp(`^${mixedSegmentPattern(part, true)}$`);
  return (segment, out) => {
    const match = splitter.exec(segment);
    if (!match) return false;
    names.forEach((name, i) => (out[name] = decode(match[i + 1])));
    return true;
  };
}

/** A template compiled once: the parameters of a path it matches, or undefined. */
export type TemplateMatcher = (pathname: string) => Record<string, string> | undefined;

/**
 * @example templateMatcher('/pets/{petId}')('/pets/7') // { petId: '7' }
 * @example templateMatcher('/v1', '/pets')('/v1/pets/') // undefined: a trailing slash is another path
 */
export function templateMatcher(template: string, basePath = ''): TemplateMatcher {
  const parts = `${basePath}${template}`.split('/').map(segmentMatcher);
  return (pathname) => {
    const segments = pathname.split('/');
    if (segments.length !== parts.length) return undefined;
    const params: Record<string, string> = {};
    return parts.every((matches, i) => matches(segments[i], params)) ? params : undefined;
  };
}

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
 * Finds, among `items`, the one whose template matches a path (under `basePath`), the most
 * specific first (as the mock's router ranks them), with the path's parameters. The templates are
 * ranked and compiled once, here: the finder is made at startup and called per path.
 *
 * @example templateFinder(operations, '', (op) => op.path)('/pets/mine') // the operation of /pets/mine, not of /pets/{petId}
 */
export function templateFinder<T>(items: readonly T[], basePath: string, templateOf: (item: T) => string): (pathname: string) => { item: T; params: Record<string, string> } | undefined {
  const ranked = [...items].sort((a, b) => compareTemplates(templateOf(a), templateOf(b))).map((item) => ({ item, matches: templateMatcher(templateOf(item), basePath) }));
  return (pathname) => {
    for (const { item, matches } of ranked) {
      const params = matches(pathname);
      if (params) return { item, params };
    }
    return undefined;
  };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
