/**
 * The value of `X-Proxy-Violations`: every violation of an exchange by its check and place
 * (`response_schema_conformance body.name`), a request's by every field it breaks (its violation
 * keeps only the first as its path), and bounded: past MAX_MARK characters it stops at a whole
 * entry and counts the ones left out (`and 7 more`).
 */
import { sendableHeaderValue } from '../core/header-value.js';
import type { Problem } from '../core/problem.js';
import type { Violation } from './inspect.js';

/** At most this much of the header naming violations. */
export const MAX_MARK = 2_000;

/**
 * @param seen the exchange's violations
 * @param problems what the request broke (a `request_conformance` violation stands for all of them)
 * @returns the header's value, or undefined when nothing was broken
 * @example violationsMark([requestViolation], problems) // 'request_conformance body.name, request_conformance body.categoryId'
 */
export function violationsMark(seen: readonly Violation[], problems: readonly Problem[] = []): string | undefined {
  const entries = [
    ...new Set(
      seen.flatMap((v) => {
        const paths = v.check === 'request_conformance' && problems.length ? problems.map((p) => p.path) : [v.path];
        // A path holds property names as the client or the upstream wrote them: CR, LF and all.
        return paths.map((path) => sendableHeaderValue(`${v.check}${path ? ` ${path}` : ''}`));
      }),
    ),
  ];
  if (entries.length === 0) return undefined;
  const kept: string[] = [];
  let length = 0;
  for (const [i, entry] of entries.entries()) {
    const left = entries.length - i - 1;
    const tail = left ? `, and ${left} more`.length : 0;
    if (length + (kept.length ? 2 : 0) + entry.length + tail > MAX_MARK) break;
    kept.push(entry);
    length += (kept.length > 1 ? 2 : 0) + entry.length;
  }
  // Not even the first fits (a path of thousands of characters): its start, cut short of a split %XX.
  if (kept.length === 0) kept.push(`${entries[0].slice(0, MAX_MARK - 40).replace(/%[0-9A-F]?$/, '')}...`);
  const omitted = entries.length - kept.length;
  return omitted ? `${kept.join(', ')}, and ${omitted} more` : kept.join(', ');
}
