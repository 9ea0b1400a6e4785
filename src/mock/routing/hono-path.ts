/**
 * Stage 3a: OpenAPI path templates as Hono routes, and the order to register them in.
 *
 * `/pets/{petId}` becomes `/pets/:p0`. A parameter inside a segment (`/{provider}.json`) becomes
 * a regex-constrained Hono parameter (`/:p0{[^/]+?\.json}`) split into its parameters here.
 * Parameters are renamed `p0`, `p1`... so that any name the document uses is safe for Hono. The
 * segment patterns and the ranking are the path templates' (operations/path-template.ts), shared
 * with everyone else who matches paths.
 */
import { mixedSegmentPattern, segmentParameters } from '../../openapi/operations/path-template.js';

export interface HonoRoute {
  /** The template as written: `/pets/{petId}`. */
  template: string;
  /** The Hono path: `/pets/:p0`. */
  honoPath: string;
  /** Reads the document's path parameters from Hono's. */
  params: (honoParam: (name: string) => string | undefined) => Record<string, string>;
}

/** @example toHonoRoute('/pets/{petId}', '/v1').honoPath // '/v1/pets/:p0' */
export function toHonoRoute(template: string, basePath = ''): HonoRoute {
  const readers: Array<(get: (name: string) => string | undefined, out: Record<string, string>) => void> = [];
  const segments = template.split('/').map((segment, index) => {
    const names = segmentParameters(segment);
    if (names.length === 0) return segment;
    const slot = `p${index}`;
    if (segment === `{${names[0]}}`) {
      readers.push((get, out) => void (out[names[0]] = get(slot) ?? ''));
      return `:${slot}`;
    }
    // Mixed segment: literal text around one or more parameters.
    const splitter = new RegExp(`^${mixedSegmentPattern(segment, true)}$`);
    readers.push((get, out) => {
      const match = splitter.exec(get(slot) ?? '');
      names.forEach((name, i) => (out[name] = match?.[i + 1] ?? ''));
    });
    return `:${slot}{${mixedSegmentPattern(segment, false)}}`;
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
