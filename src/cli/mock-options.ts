/**
 * The mock's options as the command line gives them: `serve` builds its mock with them, and
 * `proxy` the mock behind its own endpoints and its fallback.
 */
import type { BuildMockOptions } from '../mock/app.js';
import type { DocsAssets } from '../mock/docs/docs-endpoint.js';
import type { AllowedHosts } from '../mock/middleware/host-guard.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { NODE_REQUESTS } from '../server/node-requests.js';
import type { Logger } from './log.js';
import type { ServeArgs } from './parse-args.js';

export interface CommandContext {
  /** The fixtures directory: the flag's, or the embedded one for the embedded document. */
  fixtures?: string;
  /** The docs page's assets (none with --no-docs). */
  docs?: DocsAssets;
  allowedHosts: AllowedHosts;
  /** True when the heap is nearly full: writes are refused before the process runs out of memory. */
  heapPressure: () => boolean;
  /** The clock, moved by --now. */
  now?: () => Date;
  log: Logger;
}

/** @example buildMock(document, { ...mockOptionsOf(args, context), writable }) */
export function mockOptionsOf(args: Omit<ServeArgs, 'command'>, context: CommandContext): BuildMockOptions {
  return {
    requestReader: NODE_REQUESTS,
    apiKeys: args.apiKeys,
    seed: args.seed,
    counts: args.counts,
    fixtures: context.fixtures,
    delay: args.delay,
    errorRate: args.errorRate,
    limits: { maxRecords: args.maxRecords, maxBytes: args.maxStateMb === undefined ? undefined : args.maxStateMb * 1024 * 1024, heapPressure: context.heapPressure },
    corsOrigins: args.corsOrigins,
    oauth: { tokenLifetime: args.oauthTokenTtl, redirectOrigins: args.oauthRedirectOrigins },
    adminToken: args.adminToken,
    maxAdminBodyBytes: args.maxAdminBodyMb === undefined ? undefined : args.maxAdminBodyMb * 1024 * 1024,
    admin: !args.noAdmin,
    docs: context.docs,
    trustProxy: args.trustProxy,
    allowedHosts: context.allowedHosts,
    now: context.now,
    onWarning: context.log.warn,
    onRequest: context.log.request,
    selfCheck: args.selfCheck,
    plugins: DEFAULT_PLUGINS,
  };
}
