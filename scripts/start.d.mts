/** Why `root` needs a build: undefined when dist/ is up to date or there is nothing to build from. */
export function staleReason(root: string): string | undefined;
