/**
 * Stage `deprecation`: a deprecated operation whose docs are at a relative URL links them where
 * the client reached the mock (the other deprecation headers are the operation's base headers).
 */
import { deprecationLink } from '../../respond/deprecation.js';
import type { Stage } from './stage.js';

/** Adds the `Link` to the operation's docs at `docsPath`, with its sunset date if any. */
export function deprecation(docsPath: string, sunset: Date | undefined): Stage {
  return {
    name: 'deprecation',
    run(request) {
      request.extra = { ...request.extra, Link: deprecationLink(request.client().path(docsPath), sunset) };
      return undefined;
    },
  };
}
