/**
 * In a browser there is no fixtures directory to read: the browser build (rolldown.config.mjs)
 * puts this module in place of load-fixtures.ts, whose reading needs node:fs. Records are given
 * as objects there (`createMock({ fixtures: { pets: [...] } })`), and checked when seeded.
 */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
}

/** @throws FixtureError always: a directory cannot be read in a browser. */
export function loadFixtures(dir: string): never {
  throw new FixtureError(`Cannot read the fixtures directory ${dir} in a browser; pass the records instead: fixtures: { <collection>: [...] }.`);
}
